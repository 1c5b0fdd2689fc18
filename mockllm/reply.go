package mockllm

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/faultbench/faultbench/scenario"
)

// wire is the API a request came in by; the same script answers both.
type wire uint8

const (
	anthropicWire wire = iota // POST <base>v1/messages
	openaiWire                // POST <base>v1/chat/completions
	responsesWire             // POST <base>v1/responses (OpenAI's Responses API)
)

func (w wire) String() string {
	switch w {
	case openaiWire:
		return "openai"
	case responsesWire:
		return "openai-responses"
	}
	return "anthropic"
}

// openai reports whether the wire is one of OpenAI's, whose errors share
// one shape and one wording.
func (w wire) openai() bool { return w != anthropicWire }

// answer is a 200 reply's content: one text block, then any tool calls.
type answer struct {
	id, model, text, stop string
	input, output         int
	tools                 []toolCall
}

// hasText reports whether the answer has a text block: an answer that only
// calls tools has none, since the real APIs send none (Anthropic's content
// starts with the tool_use, OpenAI's content is null) and refuse an empty
// text block echoed back.
func (a *answer) hasText() bool { return a.text != "" || len(a.tools) == 0 }

// toolCall is a tool_use block of an answer (OpenAI: a tool call).
type toolCall struct {
	id, name string
	input    string // the arguments, as JSON
}

// reply is what one request is answered with: an error or an answer, how
// (streamed or not, on which wire), any fault, and the headers a rule adds.
// It is decided under the session's lock and written after it.
type reply struct {
	wire    wire
	stream  bool // the request asked for server-sent events
	usage   bool // OpenAI's stream_options.include_usage
	err     *apiError
	ans     answer
	fault   scenario.Fault
	failure *apiError // the SSE error event of a fault with error_after
	headers map[string]string
	// wait is what an error's headers ask the client to wait (0: nothing
	// asked); OpenAI's rate-limit headers repeat it.
	wait time.Duration
	// retryAfter is the retry-after the mock adds to a 429 whose rule sets
	// none ("" when it adds none).
	retryAfter string
	input      int // the request's input tokens
	requestID  string
	created    int64 // OpenAI's "created": the session's clock, Unix seconds
	clock      Clock // the session's: delays and dribbles wait on it
	// rate is the model's buckets as the headers show them (nil: the
	// model declares no limits).
	rate *rateState
	// lag and gen are the model's speed (speed.go): the wait for the
	// first token, then the generation of the rest.
	lag, gen time.Duration
}

// status is the HTTP status the client sees: 0 when the fault sends none.
func (r *reply) status() int {
	switch r.fault.Kind {
	case scenario.FaultReset, scenario.FaultHang, scenario.FaultGarbage:
		return 0
	}
	if r.err != nil {
		return r.err.status
	}
	return http.StatusOK
}

// kind labels what the client got, for the journal.
func (r *reply) kind() string {
	switch r.fault.Kind {
	case scenario.FaultReset, scenario.FaultGarbage, scenario.FaultCut:
		return kindConnection
	case scenario.FaultHang:
		return kindTimeout
	case scenario.FaultMalformed:
		return kindMalformed
	case scenario.FaultEmpty:
		return kindEmpty
	case scenario.FaultError:
		return r.failure.kind
	}
	switch {
	case r.err != nil:
		return r.err.kind
	case r.ans.stop == "max_tokens":
		return kindTruncated
	}
	return kindOK
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
		return 0, kindTimeout
	}
	switch f.Kind {
	case scenario.FaultReset, scenario.FaultGarbage:
		return status, kind
	}
	if f.Dribble > 0 {
		p, _ := r.payload()
		n := time.Duration(len(p.ends))
		p.release()
		// n dribbles pass the deadline when one is longer than the time
		// left shared among them (so that n × dribble cannot overflow).
		if left := deadline.Sub(at); n > 0 && (f.Dribble.D() > left/n || f.Dribble.D()*n > left) {
			return status, kindTimeout
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
	shouldRetryTrue  = []string{"true"}
	contentLengthNil = []string{"0"}
)

// write sends r: the delay, the fault before any header, then the headers
// and the payload (a JSON body, or a stream of events). A body is built in
// a pooled buffer and written at once with its length, so even a long
// answer goes out unchunked; only a dribble writes it in pieces.
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
	p, declared := r.payload()
	defer p.release()
	h := w.Header()
	r.setHeaders(h, r.streaming())
	if !r.streaming() {
		switch {
		case declared == 0:
			h["Content-Length"] = contentLengthNil
		case declared > smallBody || f.Kind != "" || f.Dribble > 0:
			// net/http measures a small body itself; a longer one would
			// otherwise go out chunked, and a cut one must promise it all.
			h["Content-Length"] = []string{strconv.Itoa(declared)}
		}
	}
	if reason := reasonPhrase(r.status()); reason != "" && f.Kind == "" && f.Dribble == 0 && writeRaw(w, r.status(), reason, p.buf) {
		return
	}
	w.WriteHeader(r.status())
	if f.Dribble > 0 {
		if dribble(ctx, w, r.clock, f.Dribble.D(), p.buf, p.ends) != nil {
			hangUp(w, true) // the client gave up, or the server is closing
			return
		}
	} else if r.streaming() && r.gen > 0 {
		if generate(ctx, w, r.clock, r.gen, p.buf, p.ends) != nil {
			hangUp(w, true)
			return
		}
	} else {
		_, _ = w.Write(p.buf) // a client that went away has nothing left to tell
	}
	if f.Kind == scenario.FaultCut {
		hangUp(w, true)
	}
}

// setHeaders sets the headers every answer of the wire carries, then the
// rule's.
func (r *reply) setHeaders(h http.Header, streaming bool) {
	if streaming {
		h["Content-Type"] = eventStreamType
		h["Cache-Control"] = noCache
	} else {
		h["Content-Type"] = jsonContentType
	}
	switch r.wire {
	case anthropicWire:
		h["Request-Id"] = []string{r.requestID}
		if r.err != nil && r.err.status == 529 {
			h["X-Should-Retry"] = shouldRetryTrue
		}
		if r.rate != nil {
			r.rate.setAnthropic(h)
		}
	case openaiWire, responsesWire:
		h["X-Request-Id"] = []string{r.requestID}
		if r.rate != nil {
			r.rate.setOpenAI(h)
		} else {
			r.rateLimitHeaders(h)
		}
	}
	if r.retryAfter != "" {
		h["Retry-After"] = []string{r.retryAfter}
	}
	setRuleHeaders(h, r.headers)
}

// askedWait is the wait the reply's headers ask for: the rule's
// retry-after-ms or retry-after, or the retry-after the mock added.
func (r *reply) askedWait(now time.Time) (time.Duration, bool) {
	if r.retryAfter != "" {
		return retryAfterOf(map[string]string{"retry-after": r.retryAfter}, now)
	}
	return retryAfterOf(r.headers, now)
}

// streaming reports whether the reply goes out as server-sent events: an
// answer to a request that asked for them (an error is JSON either way).
func (r *reply) streaming() bool { return r.stream && r.err == nil }

// payload renders what the reply sends after its headers, as its fault
// leaves it, in a pooled buffer: a stream's events; or a JSON body, whole
// or empty, malformed (its first half and a NUL, with that length) or cut
// (its first half; declared is the whole length, promised by
// Content-Length). The ends of the pieces a dribble sends are set for a
// stream (its events) and for a dribbled body (pieces of 64 bytes).
func (r *reply) payload() (p *events, declared int) {
	p = eventsPool.Get().(*events)
	if r.streaming() {
		r.streamEvents(p)
		return p, len(p.buf)
	}
	p.buf = r.appendBody(p.buf)
	declared = len(p.buf)
	switch r.fault.Kind {
	case scenario.FaultEmpty:
		p.buf, declared = p.buf[:0], 0
	case scenario.FaultMalformed:
		// Half the body, then a NUL, which no JSON may hold where it
		// stands: a syntax error, told apart from a body cut short.
		p.buf = append(p.buf[:len(p.buf)/2], 0)
		declared = len(p.buf)
	case scenario.FaultCut:
		p.buf = p.buf[:len(p.buf)/2]
	}
	if r.fault.Dribble > 0 {
		p.ends = pieces(p.ends, len(p.buf))
	}
	return p, declared
}

// appendBody appends the JSON body of the reply on its wire.
func (r *reply) appendBody(b []byte) []byte {
	switch {
	case r.wire.openai() && r.err != nil:
		return appendOpenAIError(b, r.err)
	case r.wire == openaiWire:
		return appendCompletion(b, &r.ans, r.created)
	case r.wire == responsesWire:
		return r.appendResponse(b, responseStatus(&r.ans), true)
	case r.err != nil:
		return appendError(b, r.err, r.requestID)
	}
	return appendAnswer(b, &r.ans)
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
