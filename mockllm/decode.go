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
	var buf *[]byte
	if mem != nil && mem.On {
		mem.Inflight.Add(1)
		defer mem.Inflight.Add(-1)
		buf = mem.Spare.Swap(nil)
	}
	if buf == nil {
		buf = bodies.Get().(*[]byte)
	}
	defer func() {
		if q.Memo != nil {
			q.Memo.Buf = buf // the memo keeps the buffer
			q.Memo.Fingerprint = in.fingerprint
			mem.Keep(q.Memo)
			return
		}
		if cap(*buf) <= maxPooledBody {
			*buf = (*buf)[:0]
			bodies.Put(buf)
		}
	}()
	body, err := readBody((*buf)[:0], http.MaxBytesReader(w, r.Body, maxBodyBytes), r.ContentLength)
	*buf = body
	in.fingerprint, in.hasBody = fingerprintOf(body, mem)
	if err != nil {
		return api.BodyError(err)
	}
	if err := api.Decode(body, q); err != nil {
		if q.Model == "" { // a Router's wire keeps its path's model (Gemini)
			salvage(body, q)
		}
		return err
	}
	return nil
}

// fingerprintOf is body's fingerprint (resend.go). A body byte for byte
// the same as its session's last one, which a retry from a client that
// encodes its request once is, has that body's fingerprint: comparing the
// bytes costs a fraction of hashing them as JSON. The caller has counted
// itself in mem.Inflight, so the last body's buffer stays its own.
func fingerprintOf(body []byte, mem *wire.Memory) (uint64, bool) {
	if mem != nil && mem.On && len(body) > 0 {
		if last := mem.Last.Load(); last != nil && bytes.Equal(last.Body, body) {
			return last.Fingerprint, true
		}
	}
	return fingerprint(body)
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
var bodies = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledBody = 4 << 20

// maxUpfrontGrow is how much of a declared Content-Length decodeBody
// reserves before the bytes arrive: 64 KiB. Past that the buffer grows
// with what is read, so memory follows bytes received, not bytes promised
// (a client that declares 32 MB and sends one byte costs 64 KiB).
const maxUpfrontGrow = 64 << 10

// readBody appends r to its end onto b. A body that declares its length
// (declared >= 0) is read into a buffer of exactly that length once its
// bytes have come: the buffer starts at the declared length or
// maxUpfrontGrow, whichever is less, and each growth doubles it without
// passing the declared length, so a body is neither copied into a buffer
// twice its size nor cleared twice (bytes.Buffer.ReadFrom keeps 512 bytes
// free for the end of the body, which doubled a buffer of the exact
// length). A body of unknown length (chunked) grows by doubling.
func readBody(b []byte, r io.Reader, declared int64) ([]byte, error) {
	if declared > 0 && cap(b) < int(min(declared, maxUpfrontGrow)) {
		b = make([]byte, 0, int(min(declared, maxUpfrontGrow)))
	}
	for {
		if len(b) == cap(b) {
			if declared >= 0 && int64(len(b)) >= declared {
				// Every declared byte is in: the end is due. A one-byte
				// read says so without growing the buffer.
				var one [1]byte
				n, err := r.Read(one[:])
				if n == 0 {
					if err == io.EOF {
						return b, nil
					}
					if err != nil {
						return b, err
					}
					continue
				}
				b = append(b, one[0]) // more than declared: grow as for an unknown length
				declared = -1
				continue
			}
			next := max(2*cap(b), 512)
			if declared >= 0 {
				next = int(min(int64(next), declared))
			}
			grown := make([]byte, len(b), next)
			copy(grown, b)
			b = grown
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
