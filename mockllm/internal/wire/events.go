package wire

import (
	"sync"
	"unicode/utf8"

	"github.com/faultbench/faultbench/internal/jsonscan"
)

// Events is a stream of server-sent events built in one buffer: Ends[i]
// is where event i ends. A body that does not stream is built in one too,
// its Ends the pieces a dribble sends.
//
// Events given a Sink (Send) hold only a window of events: once Buf
// reaches the window they go to the sink and Buf is reused, so that an
// answer of any length takes the memory of a window and of its largest
// event; a text of any length appended with AppendString goes out in
// pieces of the window too. Without one they are all kept.
type Events struct {
	Buf  []byte
	Ends []int
	// out counts the bytes of output text (text and tool arguments) the
	// events so far carry; sent is out at the end of the last event kept.
	out, sent int
	// n counts the events kept, and limit is how many may be (negative:
	// any number); an event past it is built and dropped.
	n, limit int
	send     Sink
	window   int
	err      error // the first error send returned
}

// Sink takes events as they are built: b holds whole events, ending at
// ends (offsets in b), and may end with the first part of the next
// event. An error stops the sending: the events after it are dropped.
// b is reused once the sink returns.
type Sink func(b []byte, ends []int) error

// keptBytes is the largest buffer the pool keeps: 256 KiB, four windows.
const keptBytes = 256 << 10

var eventsPool = sync.Pool{New: func() any { return &Events{Buf: make([]byte, 0, 4096), limit: -1} }}

// NewEvents is an empty Events from a pool, which keeps every event and
// has no sink; Release gives it back.
func NewEvents() *Events { return eventsPool.Get().(*Events) }

// Send hands the events to send as they are built, once window bytes of
// them are waiting (0: each event at once). Call it before the first
// event, or between events to change the window.
func (ev *Events) Send(send Sink, window int) { ev.send, ev.window = send, window }

// Discard drops the bytes of every event as it ends, keeping only their
// count and the output they carry: what a caller that only counts needs.
func (ev *Events) Discard() { ev.Send(discard, 0) }

func discard([]byte, []int) error { return nil }

// Limit keeps the first n events and drops every event after them (n
// negative: keeps every event again), as a fault that cuts a stream
// does.
func (ev *Events) Limit(n int) { ev.limit = n }

// dropping reports whether the event being built is dropped.
func (ev *Events) dropping() bool { return ev.limit >= 0 && ev.n >= ev.limit || ev.err != nil }

// Begin starts an event: "event: NAME\ndata: ", or "data: " when name is
// empty (OpenAI's Chat Completions names no events). The caller appends
// the data and hands the buffer to End.
func (ev *Events) Begin(name string) []byte {
	b := ev.Buf
	if name != "" {
		b = append(b, "event: "...)
		b = append(b, name...)
		b = append(b, '\n')
	}
	return append(b, "data: "...)
}

// BeginRaw starts an event that is no server-sent event: the caller
// appends all of its bytes (a JSON array's element and the comma before
// it) and hands the buffer to EndRaw.
func (ev *Events) BeginRaw() []byte { return ev.Buf }

// End closes the event begun on b.
func (ev *Events) End(b []byte) { ev.EndRaw(append(b, '\n', '\n')) }

// EndRaw closes the event begun on b as it stands.
func (ev *Events) EndRaw(b []byte) {
	if ev.dropping() {
		ev.Buf = b[:len(ev.Buf)]
		return
	}
	ev.Buf = b
	ev.Ends = append(ev.Ends, len(ev.Buf))
	ev.n++
	ev.sent = ev.out
	if ev.send != nil && len(ev.Buf) >= ev.window {
		ev.flush(ev.Buf)
	}
}

// AppendString appends s to the event begun on b as a JSON string, as
// jsonscan.AppendString does; with a sink, a long s goes out in pieces of
// the window as it is appended. It returns the buffer to go on with.
func (ev *Events) AppendString(b []byte, s string) []byte {
	if ev.send == nil {
		return jsonscan.AppendString(b, s)
	}
	b = append(b, '"')
	for len(s) > 0 {
		n := min(max(ev.window, minPiece), len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		b = jsonscan.AppendStringBody(b, s[:n])
		s = s[n:]
		if len(b) >= ev.window && len(s) > 0 {
			b = ev.spill(b)
		}
	}
	return append(b, '"')
}

// minPiece is the least of a text AppendString appends at a time.
const minPiece = 4 << 10

// spill sends the events waiting and the first part of the event being
// built on b, and returns the buffer to build the rest of it on.
func (ev *Events) spill(b []byte) []byte {
	if ev.dropping() {
		return b[:len(ev.Buf)] // what a dropped event holds goes nowhere
	}
	ev.flush(b)
	return ev.Buf
}

// flush sends b, then empties the window.
func (ev *Events) flush(b []byte) {
	if ev.err == nil && len(b) > 0 {
		ev.err = ev.send(b, ev.Ends)
	}
	ev.Buf, ev.Ends = b[:0], ev.Ends[:0]
}

// Flush sends the events still waiting to the sink, and returns the first
// error the sink returned.
func (ev *Events) Flush() error {
	if ev.send != nil {
		ev.flush(ev.Buf)
	}
	return ev.err
}

// Carry counts n bytes of output text in the event being built.
func (ev *Events) Carry(n int) { ev.out += n }

// Carried is the output text, in bytes, that the events kept so far
// carry: what a wire that wraps another's events in its own (Bedrock's
// chunks) hands on to the Events it writes with Carry.
func (ev *Events) Carried() int { return ev.sent }

// Len is how many events were kept.
func (ev *Events) Len() int { return ev.n }

// OutputTokens is the output the events kept carry, by the token rule.
func (ev *Events) OutputTokens() int { return CountBytes(ev.sent) }

// Release puts ev back in the pool, unless a large answer made it big:
// the pool keeps only small buffers.
func (ev *Events) Release() {
	if cap(ev.Buf) <= keptBytes && cap(ev.Ends) <= keptBytes/8 {
		*ev = Events{Buf: ev.Buf[:0], Ends: ev.Ends[:0], limit: -1}
		eventsPool.Put(ev)
	}
}

// deltaBytes is how much text one delta event carries: 16 tokens.
const deltaBytes = 64

// Chunks cuts s into pieces of about 64 bytes (16 tokens), on rune
// boundaries, and calls f with each; an empty s gives no piece. Every
// wire streams its text and tool arguments in these pieces.
func Chunks(s string, f func(string)) {
	for len(s) > 0 {
		n := min(deltaBytes, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		f(s[:n])
		s = s[n:]
	}
}
