package mockllm

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// reply is what one request is answered with: an error or an answer, how
// (streamed or not, on which wire), any fault, and the headers a rule adds.
// It is decided under the session's lock and written after it.
type reply struct {
	wire.Reply // what the wire renders
	api        wire.Wire
	stream     bool // the request asked for server-sent events
	fault      scenario.Fault
	headers    map[string]string
	// retryAfter is the retry-after the mock adds to a 429 whose rule sets
	// none ("" when it adds none).
	retryAfter string
	clock      Clock // the session's: delays and dribbles wait on it
	// lag and gen are the model's speed (speed.go): the wait for the
	// first token, then the generation of the rest.
	lag, gen time.Duration
	// rule is the script rule that answered, from 1 (0: none did).
	rule int
}

// status is the HTTP status the client sees: 0 when the fault sends none.
func (r *reply) status() int {
	switch r.fault.Kind {
	case scenario.FaultReset, scenario.FaultHang, scenario.FaultGarbage:
		return 0
	}
	if r.Err != nil {
		return r.Err.Status
	}
	return http.StatusOK
}

// answeredError is the error the client was answered with: the
// status's, else the one its stream ends with (nil: none).
func (r *reply) answeredError() *wire.Error {
	if r.Err != nil {
		return r.Err
	}
	if r.fault.Kind == scenario.FaultError {
		return r.Failure
	}
	return nil
}

// kind labels what the client got, for the journal.
func (r *reply) kind() string {
	switch r.fault.Kind {
	case scenario.FaultReset, scenario.FaultGarbage, scenario.FaultCut:
		return wire.KindConnection
	case scenario.FaultHang:
		return wire.KindTimeout
	case scenario.FaultMalformed:
		return wire.KindMalformed
	case scenario.FaultEmpty:
		return wire.KindEmpty
	case scenario.FaultError:
		return r.Failure.Kind
	}
	switch {
	case r.Err != nil:
		return r.Err.Kind
	case r.Ans.Truncated():
		return wire.KindTruncated
	}
	return wire.KindOK
}

// outlasted says what a client whose deadline is at deadline sees of the
// reply taken at now: no status, and a timeout, when the delay outlasts
// it; the status, and a timeout, when the dribble does. It waits as write
// waits: the delay, then the dribble before each piece.
func (r *reply) outlasted(now, deadline time.Time, status int, kind string) (int, string) {
	f := r.fault
	if f.Kind == scenario.FaultHang {
		return status, kind
	}
	at := now.Add(f.Delay.D())
	if at.After(deadline) {
		return 0, wire.KindTimeout
	}
	switch f.Kind {
	case scenario.FaultReset, scenario.FaultGarbage:
		return status, kind
	}
	if f.Dribble > 0 {
		n := time.Duration(r.pieceCount())
		// n dribbles pass the deadline when one is longer than the time
		// left shared among them (so that n × dribble cannot overflow).
		if left := deadline.Sub(at); n > 0 && (f.Dribble.D() > left/n || f.Dribble.D()*n > left) {
			return status, wire.KindTimeout
		}
	}
	return status, kind
}

// smallBody is the size up to which net/http sets Content-Length itself
// when a handler writes its whole body and returns (its chunking buffer).
const smallBody = 2048

var (
	jsonContentType  = []string{"application/json"}
	eventStreamType  = []string{"text/event-stream; charset=utf-8"}
	noCache          = []string{"no-cache"}
	contentLengthNil = []string{"0"}
)

// write sends r: the delay, the fault before any header, then the headers
// and the payload (a JSON body, or a stream of events). A body is built in
// a pooled buffer and written at once with its length, so even a long
// answer goes out unchunked; only a dribble writes it in pieces. A stream
// is written as it is rendered, a window at a time (writeStream).
func (r *reply) write(w http.ResponseWriter, req *http.Request) {
	ctx := req.Context()
	f := r.fault
	if f.Delay > 0 && waitOn(ctx, r.clock, f.Delay.D()) != nil {
		hangUp(w, false) // the client gave up first
		return
	}
	if wait := r.firstWait(); wait > 0 && waitOn(ctx, r.clock, wait) != nil {
		hangUp(w, false) // the client gave up first
		return
	}
	switch f.Kind {
	case scenario.FaultReset:
		resetConn(w)
		return
	case scenario.FaultGarbage:
		sendGarbage(w)
		return
	case scenario.FaultHang:
		_ = waitOn(ctx, r.clock, -1)
		hangUp(w, false)
		return
	}
	h := w.Header()
	r.setHeaders(h, r.streaming())
	if r.streaming() {
		w.WriteHeader(r.status())
		if r.writeStream(ctx, w) != nil && (f.Dribble > 0 || r.gen > 0) {
			hangUp(w, true) // the client gave up, or the server is closing
			return
		}
		if f.Kind == scenario.FaultCut {
			hangUp(w, true)
		}
		return
	}
	p, declared := r.payload()
	defer p.Release()
	switch {
	case declared == 0:
		h["Content-Length"] = contentLengthNil
	case declared > smallBody || f.Kind != "" || f.Dribble > 0:
		// net/http measures a small body itself; a longer one would
		// otherwise go out chunked, and a cut one must promise it all.
		h["Content-Length"] = []string{strconv.Itoa(declared)}
	}
	if reason := reasonPhrase(r.status()); reason != "" && f.Kind == "" && f.Dribble == 0 && writeRaw(w, req, r.status(), reason, p.Buf) {
		return
	}
	w.WriteHeader(r.status())
	if f.Dribble > 0 {
		if dribble(ctx, w, r.clock, f.Dribble.D(), p.Buf, p.Ends) != nil {
			hangUp(w, true) // the client gave up, or the server is closing
			return
		}
	} else {
		_, _ = w.Write(p.Buf) // a client that went away has nothing left to tell
	}
	if f.Kind == scenario.FaultCut {
		hangUp(w, true)
	}
}

// setHeaders sets the headers every answer of the wire carries, then the
// rule's.
func (r *reply) setHeaders(h http.Header, streaming bool) {
	switch st := r.api.Spec().StreamType; {
	case streaming && st != "":
		h["Content-Type"] = []string{st}
	case streaming && !r.Array:
		h["Content-Type"] = eventStreamType
		h["Cache-Control"] = noCache
	default:
		h["Content-Type"] = jsonContentType
	}
	r.api.Headers(h, &r.Reply)
	if r.retryAfter != "" && !r.api.Spec().WaitInBody {
		h["Retry-After"] = []string{r.retryAfter}
	}
	setRuleHeaders(h, r.headers)
}

// askedWait is the wait the reply's headers ask for: the rule's
// retry-after-ms or retry-after, or the retry-after the mock added (on a
// wire whose wait is in the body, the wait the body states).
func (r *reply) askedWait(now time.Time) (time.Duration, bool) {
	if r.retryAfter != "" {
		return retryAfterOf(map[string]string{"retry-after": r.retryAfter}, now)
	}
	return retryAfterOf(r.headers, now)
}

// streaming reports whether the reply goes out as server-sent events: an
// answer to a request that asked for them (an error is JSON either way).
func (r *reply) streaming() bool { return r.stream && r.Err == nil }

// pieceCount is how many pieces a dribble of the reply sends: a stream's
// events, or a body's pieces of pieceBytes.
func (r *reply) pieceCount() int {
	if r.streaming() {
		n, _ := r.countEvents()
		return n
	}
	p, _ := r.payload()
	defer p.Release()
	return len(p.Ends)
}

// payload renders the JSON body of a reply that does not stream, as its
// fault leaves it, in a pooled buffer: whole or empty, malformed (its
// first half and a NUL, with that length) or cut (its first half;
// declared is the whole length, promised by Content-Length). The ends of
// the pieces a dribble sends are set for a dribbled body (pieces of 64
// bytes). A stream is written as it is rendered instead (writeStream).
func (r *reply) payload() (p *wire.Events, declared int) {
	p = wire.NewEvents()
	p.Buf = r.appendBody(p.Buf)
	declared = len(p.Buf)
	switch r.fault.Kind {
	case scenario.FaultEmpty:
		p.Buf, declared = p.Buf[:0], 0
	case scenario.FaultMalformed:
		// Half the body, then a NUL, which no JSON may hold where it
		// stands: a syntax error, told apart from a body cut short.
		p.Buf = append(p.Buf[:len(p.Buf)/2], 0)
		declared = len(p.Buf)
	case scenario.FaultCut:
		p.Buf = p.Buf[:len(p.Buf)/2]
	}
	if r.fault.Dribble > 0 {
		p.Ends = pieces(p.Ends, len(p.Buf))
	}
	return p, declared
}

// appendBody appends the JSON body of the reply on its wire, or the
// body its rule scripted for its error.
func (r *reply) appendBody(b []byte) []byte {
	if r.Err != nil && r.Err.Body != nil {
		return append(b, r.Err.Body...)
	}
	return r.api.Body(b, &r.Reply)
}

// pieceBytes is the size of the pieces a body that does not stream
// dribbles in.
const pieceBytes = 64

// pieces appends to ends the end offsets of a body of n bytes cut in
// pieces of pieceBytes.
func pieces(ends []int, n int) []int {
	for end := pieceBytes; end < n; end += pieceBytes {
		ends = append(ends, end)
	}
	if n > 0 {
		ends = append(ends, n)
	}
	return ends
}

// dribble writes b[0:ends[0]], b[ends[0]:ends[1]], ... each after a wait
// of every on the clock, flushing each. It stops with the error of a wait
// or a write (the client gave up, the server is closing).
func dribble(ctx context.Context, w http.ResponseWriter, c Clock, every time.Duration, b []byte, ends []int) error {
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil { // the headers first, at once
		return err
	}
	start := 0
	for _, end := range ends {
		if err := waitOn(ctx, c, every); err != nil {
			return err
		}
		if _, err := w.Write(b[start:end]); err != nil {
			return err
		}
		if err := rc.Flush(); err != nil {
			return err
		}
		start = end
	}
	return nil
}
