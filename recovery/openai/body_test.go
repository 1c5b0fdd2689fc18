package openai

import (
	"bytes"
	"context"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wiretest"
)

// bodies records the bodies the SDK and the provider send.
type bodies struct{ *wiretest.Bodies }

func newBodies(t *testing.T) *bodies {
	return &bodies{wiretest.NewBodies(t, `{"error":{"type":"invalid_request_error","message":"recorded"}}`)}
}

func (b *bodies) opts() []option.RequestOption {
	return []option.RequestOption{option.WithBaseURL(b.URL + "/v1/"), option.WithAPIKey("k"), option.WithMaxRetries(0)}
}

func agentHistory() recovery.Request { return wiretest.AgentHistory("gpt-test", "call_") }

// TestBodyIsTheSDKsEncoding holds the spliced body to the SDK's own
// encoding of the same request, byte for byte, as a conversation grows,
// is resent, changes in the middle (compaction) and changes its head.
func TestBodyIsTheSDKsEncoding(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		b := newBodies(t)
		p := New(b.opts()...)
		if legacy {
			p = p.WithLegacyMaxTokens()
		}
		client := sdk.NewClient(b.opts()...)
		check := func(what string, req recovery.Request) {
			t.Helper()
			before := b.Count()
			_, _ = p.Send(context.Background(), req)
			got := b.Last()
			params, err := p.params(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = client.Chat.Completions.New(context.Background(), params)
			want := b.Last()
			if b.Count() != before+2 {
				t.Fatalf("legacy=%v, %s: %d requests sent, want 2", legacy, what, b.Count()-before)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("legacy=%v, %s:\n got %s\nwant %s", legacy, what, got, want)
			}
		}
		full := agentHistory()
		check("plain", recovery.Request{Model: "m", MaxTokens: 10, Messages: []recovery.Message{{Role: "user", Text: "hi"}}})
		check("no budget", recovery.Request{Model: "m", Messages: []recovery.Message{{Role: "user", Text: "hi"}}})
		for n := 1; n <= len(full.Messages); n++ { // an agent turn, step by step
			step := full
			step.Messages = full.Messages[:n]
			check("a growing history", step)
			check("a resend", step.Clone())
		}
		compacted := full.Clone()
		compacted.Messages[0] = recovery.Message{Role: "user", Text: "Summary: listed the files."}
		check("a compacted head", compacted)
		changed := compacted.Clone()
		changed.Model, changed.MaxTokens, changed.System = "fallback", 8192, ""
		check("another model, budget and no system", changed)
		changed.Messages[1].ToolCalls[0].Input[11] = 'x'
		check("an input changed in place", changed)
		if !bytes.Contains(b.Last(), []byte(`\"dir\" : \"x\"`)) {
			t.Fatalf("the input changed in place was not sent: %s", b.Last())
		}
	}
}
