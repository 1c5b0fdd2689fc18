package anthropic

import (
	"bytes"
	"context"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wiretest"
)

// bodies records the bodies the SDK and the provider send.
type bodies struct{ *wiretest.Bodies }

func newBodies(t *testing.T) *bodies {
	return &bodies{wiretest.NewBodies(t, `{"type":"error","error":{"type":"invalid_request_error","message":"recorded"}}`)}
}

func (b *bodies) opts() []option.RequestOption {
	return []option.RequestOption{option.WithBaseURL(b.URL), option.WithAPIKey("k"), option.WithMaxRetries(0)}
}

// sdkBody is the body the SDK itself sends for req, from its params.
func (b *bodies) sdkBody(t *testing.T, req recovery.Request, stream bool) []byte {
	t.Helper()
	params, err := messageParams(req)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(b.opts()...)
	ctx := context.Background()
	if stream {
		s := client.Messages.NewStreaming(ctx, params, option.WithRequestTimeout(DefaultRequestTimeout))
		for s.Next() {
		}
		_ = s.Close()
	} else {
		_, _ = client.Messages.New(ctx, params, option.WithRequestTimeout(DefaultRequestTimeout))
	}
	return b.Last()
}

// sent is the body p sends for req.
func (b *bodies) sent(p *Provider, req recovery.Request) []byte {
	_, _ = p.Send(context.Background(), req)
	return b.Last()
}

func agentHistory() recovery.Request { return wiretest.AgentHistory("claude-test", "toolu_") }

// TestBodyIsTheSDKsEncoding holds the spliced body to the SDK's own
// encoding of the same request, byte for byte, as a conversation grows,
// is resent, changes in the middle (compaction) and changes its head.
func TestBodyIsTheSDKsEncoding(t *testing.T) {
	for _, stream := range []bool{false, true} {
		b := newBodies(t)
		p := New(b.opts()...).WithStream(stream)
		full := agentHistory()
		check := func(what string, req recovery.Request) {
			t.Helper()
			before := b.Count()
			got := b.sent(p, req)
			want := b.sdkBody(t, req, stream)
			if b.Count() != before+2 {
				t.Fatalf("stream=%v, %s: %d requests sent, want 2", stream, what, b.Count()-before)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("stream=%v, %s:\n got %s\nwant %s", stream, what, got, want)
			}
		}
		check("plain", recovery.Request{Model: "m", MaxTokens: 10, Messages: []recovery.Message{{Role: "user", Text: "hi"}}})
		check("a system prompt", recovery.Request{Model: "m", MaxTokens: 10, System: "sys", Messages: []recovery.Message{{Role: "user", Text: "hi"}}})
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
		escalated := changed.Clone()
		escalated.MaxTokens = 16384
		check("an escalated budget alone", escalated)
		// A caller that changes a tool call's input in place is not served
		// the old encoding.
		changed.Messages[1].ToolCalls[0].Input[11] = 'x'
		check("an input changed in place", changed)
		if !bytes.Contains(b.Last(), []byte(`"dir":"x"`)) {
			t.Fatalf("the input changed in place was not sent: %s", b.Last())
		}
		check("no messages", recovery.Request{Model: "m", MaxTokens: 1, Messages: []recovery.Message{}})
	}
}
