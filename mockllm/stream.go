package mockllm

import (
	"sync"
	"unicode/utf8"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/scenario"
)

// events is a stream of server-sent events built in one buffer: ends[i]
// is where event i ends.
type events struct {
	buf  []byte
	ends []int
	// out counts the bytes of output text (text and tool arguments) the
	// events so far carry; outs[i] is out at the end of event i.
	out  int
	outs []int
}

var eventsPool = sync.Pool{New: func() any { return &events{buf: make([]byte, 0, 4096)} }}

// begin starts an event: "event: NAME\ndata: ", or "data: " when name is
// empty (OpenAI names no events). The caller appends the data and hands
// the buffer to end.
func (ev *events) begin(name string) []byte {
	b := ev.buf
	if name != "" {
		b = append(b, "event: "...)
		b = append(b, name...)
		b = append(b, '\n')
	}
	return append(b, "data: "...)
}

// end closes the event begun on b.
func (ev *events) end(b []byte) {
	ev.buf = append(b, '\n', '\n')
	ev.ends = append(ev.ends, len(ev.buf))
	ev.outs = append(ev.outs, ev.out)
}

// carry counts n bytes of output text in the event being built.
func (ev *events) carry(n int) { ev.out += n }

// outputTokens is the output the events kept carry, by the token rule.
func (ev *events) outputTokens() int {
	if len(ev.outs) == 0 {
		return 0
	}
	return countBytes(ev.outs[len(ev.outs)-1])
}

// keep drops every event after the first n.
func (ev *events) keep(n int) {
	if n >= len(ev.ends) {
		return
	}
	if n == 0 {
		ev.buf = ev.buf[:0]
	} else {
		ev.buf = ev.buf[:ev.ends[n-1]]
	}
	ev.ends, ev.outs = ev.ends[:n], ev.outs[:n]
}

// release puts ev back in the pool, unless a rare huge answer made it big.
func (ev *events) release() {
	if cap(ev.buf) <= 1<<20 {
		ev.buf, ev.ends, ev.outs, ev.out = ev.buf[:0], ev.ends[:0], ev.outs[:0], 0
		eventsPool.Put(ev)
	}
}

// deltaBytes is how much text one delta event carries: 16 tokens.
const deltaBytes = 64

// chunks cuts s into pieces of about deltaBytes, on rune boundaries, and
// calls f with each; an empty s gives no piece.
func chunks(s string, f func(string)) {
	for len(s) > 0 {
		n := min(deltaBytes, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		f(s[:n])
		s = s[n:]
	}
}

// streamEvents renders the answer as server-sent events, as the fault
// leaves them: none (empty); the first, then one whose JSON is broken
// (malformed); the first After, before the connection drops (cut); the
// first After, then an error event (error).
func (r *reply) streamEvents(ev *events) {
	switch r.wire {
	case openaiWire:
		r.openaiEvents(ev)
	case responsesWire:
		r.responseEvents(ev)
	default:
		r.anthropicEvents(ev)
	}
	switch f := r.fault; f.Kind {
	case scenario.FaultEmpty:
		ev.keep(0)
	case scenario.FaultMalformed:
		ev.keep(1)
		r.brokenEvent(ev)
	case scenario.FaultCut:
		ev.keep(f.After)
	case scenario.FaultError:
		ev.keep(f.After)
		r.errorEvent(ev, r.failure)
	}
}

// brokenEvent appends an event whose data is JSON cut short.
func (r *reply) brokenEvent(ev *events) {
	if r.wire == responsesWire {
		b := ev.begin("response.in_progress")
		ev.end(append(b, `{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_`...))
		return
	}
	if r.wire == openaiWire {
		b := ev.begin("")
		b = append(b, `{"id":`...)
		b = jsonscan.AppendString(b, r.ans.id)
		ev.end(append(b, `,"object":"chat.completion.chu`...))
		return
	}
	b := ev.begin("content_block_start")
	ev.end(append(b, `{"type":"content_block_start","index":0,"content_block":{"type":"te`...))
}

// errorEvent appends the error event a stream ends with.
func (r *reply) errorEvent(ev *events, e *apiError) {
	if r.wire == responsesWire {
		r.responseFailed(ev, e)
		return
	}
	if r.wire == openaiWire {
		ev.end(appendOpenAIError(ev.begin(""), e))
		return
	}
	ev.end(appendError(ev.begin("error"), e, r.requestID))
}

// outputSent is the output a 200 that a fault broke delivered: the text
// and tool arguments of the stream events sent whole before the fault; a
// body that does not stream delivers nothing usable once broken.
func (r *reply) outputSent() int {
	if !r.streaming() {
		return 0
	}
	p := eventsPool.Get().(*events)
	defer p.release()
	r.streamEvents(p)
	if r.fault.Kind == scenario.FaultMalformed || r.fault.Kind == scenario.FaultError {
		// The broken event and the error event carry no output.
		p.keep(len(p.ends) - 1)
	}
	return p.outputTokens()
}
