package mockllm

import (
	"context"
	"net/http"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// streamWindow is how many bytes of a stream's events wait before they
// are written: 64 KiB. A stream of any length takes this much memory, and
// its largest event (a Responses API event that repeats the whole text
// is written in pieces of the window as it is built); a stream shorter
// than the window goes out in one write.
const streamWindow = 64 << 10

// streamEvents renders the answer as server-sent events, as the fault
// leaves them: none (empty); the first, then one whose JSON is broken
// (malformed); the first After, before the connection drops (cut); the
// first After, then an error event (error).
func (r *reply) streamEvents(ev *wire.Events) {
	ev.Limit(r.keptEvents())
	r.api.Stream(ev, &r.Reply)
	ev.Limit(-1)
	switch r.fault.Kind {
	case scenario.FaultMalformed:
		r.api.Broken(ev, &r.Reply)
	case scenario.FaultError:
		r.api.Failed(ev, &r.Reply, r.Failure)
	}
}

// keptEvents is how many of the answer's events the fault lets through
// (negative: all).
func (r *reply) keptEvents() int {
	switch f := r.fault; f.Kind {
	case scenario.FaultEmpty:
		return 0
	case scenario.FaultMalformed:
		return 1
	case scenario.FaultCut, scenario.FaultError:
		return f.After
	}
	return -1
}

// countEvents renders the stream without keeping it: how many events it
// sends, and the output (in tokens) that the answer's own events carry,
// without the broken event or the error event a fault ends it with.
func (r *reply) countEvents() (events, output int) {
	ev := wire.NewEvents()
	defer ev.Release()
	ev.Discard()
	ev.Limit(r.keptEvents())
	r.api.Stream(ev, &r.Reply)
	events, output = ev.Len(), ev.OutputTokens()
	switch r.fault.Kind {
	case scenario.FaultMalformed, scenario.FaultError:
		events++
	}
	return events, output
}

// outputSent is the output a 200 that a fault broke delivered: the text
// and tool arguments of the stream events sent whole before the fault; a
// body that does not stream delivers nothing usable once broken.
func (r *reply) outputSent() int {
	if !r.streaming() {
		return 0
	}
	_, output := r.countEvents()
	return output
}

// writeStream writes a stream's events as they are rendered, a window at
// a time (streamWindow), after the headers: a dribble waits before each
// event and flushes it; a paced answer flushes its first event and waits
// for the generation of the rest. It reports an error of a wait or a
// write (the client gave up, the server is closing).
func (r *reply) writeStream(ctx context.Context, w http.ResponseWriter) error {
	sw := &streamWriter{ctx: ctx, w: w, rc: http.NewResponseController(w), clock: r.clock, every: r.fault.Dribble.D(), gen: r.gen}
	if sw.every > 0 {
		sw.gen = 0
		if err := sw.rc.Flush(); err != nil { // the headers first, at once
			return err
		}
	}
	ev := wire.NewEvents()
	defer ev.Release()
	ev.Send(sw.write, streamWindow)
	r.streamEvents(ev)
	return ev.Flush()
}

// streamWriter writes the events a stream's Events sends it.
type streamWriter struct {
	ctx   context.Context
	w     http.ResponseWriter
	rc    *http.ResponseController
	clock Clock
	every time.Duration // a dribble's wait before each event
	gen   time.Duration // a paced answer's wait after its first event
	// begun says the first event was written; part that the first part
	// of an event was (a dribble waited for it).
	begun, part bool
}

var _ wire.Sink = (*streamWriter)(nil).write

// write writes b, whose events end at ends: at once, or as a dribble or a
// paced answer has it (the first event alone, flushed, then the wait).
func (sw *streamWriter) write(b []byte, ends []int) error {
	if sw.every > 0 {
		return sw.dribble(b, ends)
	}
	if sw.gen > 0 && !sw.begun {
		if len(ends) == 0 { // the first part of the first event
			_, err := sw.w.Write(b)
			return err
		}
		sw.begun = true
		if _, err := sw.w.Write(b[:ends[0]]); err != nil {
			return err
		}
		if err := sw.rc.Flush(); err != nil {
			return err
		}
		if err := waitOn(sw.ctx, sw.clock, sw.gen); err != nil {
			return err
		}
		b = b[ends[0]:]
	}
	if len(b) == 0 {
		return nil
	}
	_, err := sw.w.Write(b)
	return err
}

// dribble writes each event of b after a wait of every on the clock,
// flushing each; the first part of an event waits for it, and the rest
// does not wait again.
func (sw *streamWriter) dribble(b []byte, ends []int) error {
	start := 0
	for _, end := range ends {
		if err := sw.piece(b[start:end]); err != nil {
			return err
		}
		if err := sw.rc.Flush(); err != nil {
			return err
		}
		sw.part = false
		start = end
	}
	if start < len(b) {
		err := sw.piece(b[start:])
		sw.part = true
		return err
	}
	return nil
}

// piece waits for an event (unless its first part waited) and writes p.
func (sw *streamWriter) piece(p []byte) error {
	if !sw.part {
		if err := waitOn(sw.ctx, sw.clock, sw.every); err != nil {
			return err
		}
	}
	_, err := sw.w.Write(p)
	return err
}
