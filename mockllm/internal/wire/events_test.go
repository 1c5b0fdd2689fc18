package wire_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/anthropic"
	"github.com/faultbench/faultbench/mockllm/internal/wire/chat"
	"github.com/faultbench/faultbench/mockllm/internal/wire/gemini"
	"github.com/faultbench/faultbench/mockllm/internal/wire/responses"
)

// A stream sent a window at a time is, byte for byte and event for event,
// the stream built whole, whatever the window, the fault's limit and the
// text (escapes, runes of every length, invalid UTF-8).
func TestEventsSentInWindowsAreTheWholeStream(t *testing.T) {
	wires := []wire.Wire{anthropic.Wire{}, chat.Wire{}, responses.Wire{}, gemini.Wire{}}
	rapid.Check(t, func(t *rapid.T) {
		w := wires[rapid.IntRange(0, len(wires)-1).Draw(t, "wire")]
		text := rapid.StringOfN(rapid.SampledFrom([]rune("ab \"\\\n\té€😀\x01\ufffd")), 0, 3000, -1).Draw(t, "text")
		text = strings.Repeat(text, rapid.IntRange(1, 8).Draw(t, "repeat"))
		if rapid.Bool().Draw(t, "invalid") {
			text += "\xe2\x82" + text
		}
		r := &wire.Reply{Ans: wire.Answer{ID: "msg_1", Model: "m", Text: text, Stop: "end_turn", Output: 3}, Usage: true}
		if rapid.Bool().Draw(t, "tool") {
			r.Ans.Tools = []wire.ToolCall{{ID: "t1", Name: "f", Input: `{"q":"` + text + `"}`}}
		}
		limit := rapid.IntRange(-1, 40).Draw(t, "limit")
		window := rapid.IntRange(0, 5000).Draw(t, "window")

		whole := wire.NewEvents()
		whole.Limit(limit)
		w.Stream(whole, r)
		wantEnds := slices.Clone(whole.Ends)

		var got []byte
		var ends []int
		sent := wire.NewEvents()
		sent.Send(func(b []byte, e []int) error {
			for _, end := range e {
				ends = append(ends, len(got)+end)
			}
			got = append(got, b...)
			return nil
		}, window)
		sent.Limit(limit)
		w.Stream(sent, r)
		if err := sent.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, whole.Buf) {
			t.Fatalf("sent in windows of %d:\n%q\nwhole:\n%q", window, got, whole.Buf)
		}
		if !slices.Equal(ends, wantEnds) || sent.Len() != whole.Len() || sent.OutputTokens() != whole.OutputTokens() {
			t.Fatalf("ends %v (%d events, %d tokens), want %v (%d, %d)", ends, sent.Len(), sent.OutputTokens(), wantEnds, whole.Len(), whole.OutputTokens())
		}
		whole.Release()
		sent.Release()
	})
}

// Once the sink fails, nothing more is sent and the events are dropped.
func TestEventsStopSendingAfterAnError(t *testing.T) {
	ev := wire.NewEvents()
	defer ev.Release()
	calls := 0
	ev.Send(func([]byte, []int) error { calls++; return bytes.ErrTooLarge }, 0)
	anthropic.Wire{}.Stream(ev, &wire.Reply{Ans: wire.Answer{Text: "hello there"}})
	if err := ev.Flush(); err != bytes.ErrTooLarge || calls != 1 || ev.Len() != 1 {
		t.Fatalf("err %v after %d calls, %d events kept", err, calls, ev.Len())
	}
}

// A long answer sent a window at a time holds a window and a piece of
// text, whatever its length: 1M tokens on the Responses API, whose events
// repeat the whole text.
func TestEventsHoldAWindowOfALongAnswer(t *testing.T) {
	const window = 64 << 10
	text := strings.Repeat("word ", 800_000)
	for _, w := range []wire.Wire{anthropic.Wire{}, chat.Wire{}, responses.Wire{}, gemini.Wire{}} {
		ev := wire.NewEvents()
		most, total := 0, 0
		ev.Send(func(b []byte, _ []int) error {
			most, total = max(most, cap(b)), total+len(b)
			return nil
		}, window)
		w.Stream(ev, &wire.Reply{Ans: wire.Answer{Text: text}})
		if err := ev.Flush(); err != nil {
			t.Fatal(err)
		}
		if most > 4*window || total < len(text) {
			t.Errorf("%s: a buffer of %d bytes for %d sent", w.Spec().Name, most, total)
		}
		ev.Release()
	}
}
