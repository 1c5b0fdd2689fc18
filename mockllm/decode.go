package mockllm

import (
	"bytes"
	"io"
	"net/http"
	"sync"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// maxBodyBytes is the largest request body the mock accepts, as the real
// API: 32 MB. A larger one is answered 413 request_too_large.
const maxBodyBytes = 32 << 20

// decodeBody reads the body of r into q and checks the fields the mock
// needs, answering in the words of the wire. The body, at most 32 MB, is
// read once into a pooled buffer, and the wire's walker reads the buffer
// in place in one pass, checking its syntax and measuring texts without
// making strings of them, so a 400 KB conversation is neither copied again
// nor kept.
func decodeBody(w http.ResponseWriter, r *http.Request, q *wire.Request, api wire.Wire) *wire.Error {
	if r.ContentLength > maxBodyBytes {
		return api.BodyError(&http.MaxBytesError{Limit: maxBodyBytes})
	}
	if r.Body == nil {
		return api.BodyError(io.EOF)
	}
	mem := q.Mem
	var buf *bytes.Buffer
	if mem != nil && mem.On {
		mem.Inflight.Add(1)
		defer mem.Inflight.Add(-1)
		buf = mem.Spare.Swap(nil)
	}
	if buf == nil {
		buf = bodies.Get().(*bytes.Buffer)
	}
	defer func() {
		if q.Memo != nil {
			q.Memo.Buf = buf // the memo keeps the buffer
			mem.Keep(q.Memo)
			return
		}
		if buf.Cap() <= maxPooledBody {
			buf.Reset()
			bodies.Put(buf)
		}
	}()
	buf.Reset()
	if r.ContentLength > 0 {
		buf.Grow(int(min(r.ContentLength, maxUpfrontGrow)))
	}
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, maxBodyBytes)); err != nil {
		return api.BodyError(err)
	}
	return api.Decode(buf.Bytes(), q)
}

// bodies recycles request buffers; maxPooledBody keeps a rare huge body
// from pinning its buffer.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBody = 4 << 20

// maxUpfrontGrow is how much of a declared Content-Length decodeBody
// reserves before the bytes arrive: 64 KiB. Past that the buffer grows
// with what is read, so memory follows bytes received, not bytes promised
// (a client that declares 32 MB and sends one byte costs 64 KiB).
const maxUpfrontGrow = 64 << 10
