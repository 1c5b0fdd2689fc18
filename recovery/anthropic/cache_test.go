package anthropic

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/faultbench/faultbench/recovery"
)

// TestPromptCacheMarksTheBody: a request's prompt_cache marks become
// cache_control on the system block and on the last block of the last
// user message (the history ends with an assistant's), the 1-hour
// lifetime spelt out, and the spliced body is
// the SDK's own encoding of the marked params; a resend of the next step
// moves the mark.
func TestPromptCacheMarksTheBody(t *testing.T) {
	b := newBodies(t)
	p := New(b.opts()...)
	req := agentHistory()
	req.Cache = recovery.PromptCache{Breakpoints: []recovery.Breakpoint{recovery.BreakpointSystem, recovery.BreakpointLastUser}, TTL: recovery.CacheTTL1h}
	got := b.sent(p, req)
	if want := b.sdkBody(t, req, false); !bytes.Equal(got, want) {
		t.Fatalf("the spliced body differs from the SDK's:\n got %s\nwant %s", got, want)
	}
	var body struct {
		System []struct {
			CacheControl *struct{ Type, TTL string } `json:"cache_control"`
		} `json:"system"`
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				CacheControl *struct{ Type, TTL string } `json:"cache_control"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(got, &body); err != nil {
		t.Fatal(err)
	}
	if cc := body.System[0].CacheControl; cc == nil || cc.Type != "ephemeral" || cc.TTL != "1h" {
		t.Errorf("system block's cache_control %+v, want ephemeral 1h", cc)
	}
	lastUser := -1
	for i, m := range body.Messages {
		if m.Role == "user" {
			lastUser = i
		}
	}
	marks := 0
	for i, m := range body.Messages {
		for j, c := range m.Content {
			if c.CacheControl != nil {
				marks++
				if i != lastUser || j != len(m.Content)-1 {
					t.Errorf("message %d block %d is marked; want only the last user message's last block", i, j)
				}
			}
		}
	}
	if marks != 1 {
		t.Errorf("%d message blocks marked, want 1", marks)
	}

	req.Messages = append(req.Messages, recovery.Message{Role: "assistant", Text: "done"}, recovery.Message{Role: "user", Text: "next"})
	next := b.sent(p, req)
	if want := b.sdkBody(t, req, false); !bytes.Equal(next, want) {
		t.Fatalf("the next step's body differs from the SDK's:\n got %s\nwant %s", next, want)
	}
	if n := bytes.Count(next, []byte(`"cache_control"`)); n != 2 {
		t.Errorf("the next step has %d cache_control, want 2 (system, the new last user message)", n)
	}

	req.Cache = recovery.PromptCache{}
	if plain := b.sent(p, req); bytes.Contains(plain, []byte("cache_control")) {
		t.Errorf("a request that marks nothing sends cache_control: %s", plain)
	}
}
