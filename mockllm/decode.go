package mockllm

import (
	"bytes"
	"io"
	"net/http"
	"sync"

	"github.com/faultbench/faultbench/internal/jsonscan"
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
//
// It fingerprints what it read (resend.go) into in, and when the wire
// refuses the body for one of its fields, salvages what the body still
// says for the journal.
func decodeBody(w http.ResponseWriter, r *http.Request, in *incoming, api wire.Wire) *wire.Error {
	q := &in.req
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
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	in.fingerprint, in.hasBody = fingerprint(buf.Bytes())
	if err != nil {
		return api.BodyError(err)
	}
	if err := api.Decode(buf.Bytes(), q); err != nil {
		if q.Model == "" { // a Router's wire keeps its path's model (Gemini)
			salvage(buf.Bytes(), q)
		}
		return err
	}
	return nil
}

// salvage is what a body refused for one of its fields still says, for
// the journal: its model, its output budget (max_tokens, OpenAI's
// max_completion_tokens, the Responses API's max_output_tokens) and
// whether it asked for a stream. Only the top level is read, and a field
// of the wrong type is left zero, as is everything else; a body that is
// not a JSON object says nothing.
func salvage(b []byte, q *wire.Request) {
	s := jsonscan.New(b)
	if s.Peek() != '{' {
		return
	}
	var model []byte
	var maxTokens int
	var stream bool
	s.Enter()
	for s.More() {
		switch string(s.Key()) {
		case "model":
			model, _ = s.StringValue()
		case "max_tokens", "max_completion_tokens", "max_output_tokens":
			if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
				s.Skip()
				break
			}
			if n, ok := jsonscan.Integer(s.Literal()); ok && n >= 0 && maxTokens == 0 {
				maxTokens = n
			}
		case "stream":
			if c := s.Peek(); c != 't' && c != 'f' {
				s.Skip()
				break
			}
			stream = string(s.Literal()) == "true"
		default:
			s.Skip()
		}
	}
	if s.Bad() {
		return
	}
	q.Model, q.MaxTokens, q.Stream = clipEntry(string(model)), maxTokens, stream
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
