package wire

import (
	"sync"
	"unicode/utf8"
)

// Events is a stream of server-sent events built in one buffer: Ends[i]
// is where event i ends. A body that does not stream is built in one too,
// its Ends the pieces a dribble sends.
type Events struct {
	Buf  []byte
	Ends []int
	// out counts the bytes of output text (text and tool arguments) the
	// events so far carry; outs[i] is out at the end of event i.
	out  int
	outs []int
}

var eventsPool = sync.Pool{New: func() any { return &Events{Buf: make([]byte, 0, 4096)} }}

// NewEvents is an empty Events from a pool; Release gives it back.
func NewEvents() *Events { return eventsPool.Get().(*Events) }

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

// End closes the event begun on b.
func (ev *Events) End(b []byte) {
	ev.Buf = append(b, '\n', '\n')
	ev.Ends = append(ev.Ends, len(ev.Buf))
	ev.outs = append(ev.outs, ev.out)
}

// Carry counts n bytes of output text in the event being built.
func (ev *Events) Carry(n int) { ev.out += n }

// Len is how many events there are.
func (ev *Events) Len() int { return len(ev.Ends) }

// OutputTokens is the output the events kept carry, by the token rule.
func (ev *Events) OutputTokens() int {
	if len(ev.outs) == 0 {
		return 0
	}
	return CountBytes(ev.outs[len(ev.outs)-1])
}

// Keep drops every event after the first n.
func (ev *Events) Keep(n int) {
	if n >= len(ev.Ends) {
		return
	}
	if n == 0 {
		ev.Buf = ev.Buf[:0]
	} else {
		ev.Buf = ev.Buf[:ev.Ends[n-1]]
	}
	ev.Ends, ev.outs = ev.Ends[:n], ev.outs[:n]
}

// Release puts ev back in the pool, unless a rare huge answer made it big.
func (ev *Events) Release() {
	if cap(ev.Buf) <= 1<<20 {
		ev.Buf, ev.Ends, ev.outs, ev.out = ev.Buf[:0], ev.Ends[:0], ev.outs[:0], 0
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
