package recovery_test

import (
	"testing"

	"github.com/faultbench/faultbench/recovery"
)

func TestPromptCacheMarksTheLastUserMessage(t *testing.T) {
	msgs := []recovery.Message{{Role: "user", Text: "a"}, {Role: "assistant", Text: "b"}, {Role: "user", Text: "c"}, {Role: "assistant", Text: "d"}}
	c := recovery.PromptCache{Breakpoints: []recovery.Breakpoint{recovery.BreakpointLastUser}}
	got := c.Marked(msgs)
	for i, m := range got {
		want := map[int]bool{2: true}[i]
		if (m.Cache != 0) != want {
			t.Errorf("message %d marked %v, want %v", i, m.Cache, want)
		}
	}
	if got[2].Cache != recovery.CacheTTL5m {
		t.Errorf("lifetime %v, want the default 5m", got[2].Cache)
	}
	for i := range msgs {
		if msgs[i].Cache != 0 {
			t.Errorf("Marked changed its argument's message %d", i)
		}
	}
	if got := (recovery.PromptCache{Breakpoints: []recovery.Breakpoint{recovery.BreakpointSystem}}).Marked(msgs); got[2].Cache != 0 {
		t.Error("a system breakpoint marked a message")
	}
	if _, err := recovery.ParseBreakpoint("tools"); err == nil {
		t.Error("tools parsed as a breakpoint")
	}
}
