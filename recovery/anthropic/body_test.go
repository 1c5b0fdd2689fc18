package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/faultbench/faultbench/recovery"
)

// bodies is a loopback server that keeps every request body and answers
// each with an error, which is all these tests need.
type bodies struct {
	mu  sync.Mutex
	got [][]byte
	srv *httptest.Server
}

func newBodies(t *testing.T) *bodies {
	b := &bodies{}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.got = append(b.got, raw)
		b.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"recorded"}}`)
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *bodies) last() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.got[len(b.got)-1]
}

func (b *bodies) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.got)
}

func (b *bodies) opts() []option.RequestOption {
	return []option.RequestOption{option.WithBaseURL(b.srv.URL), option.WithAPIKey("k"), option.WithMaxRetries(0)}
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
	return b.last()
}

// sent is the body p sends for req.
func (b *bodies) sent(p *Provider, req recovery.Request) []byte {
	_, _ = p.Send(context.Background(), req)
	return b.last()
}

func agentHistory() recovery.Request {
	return recovery.Request{
		Model:     "claude-test",
		MaxTokens: 4096,
		System:    "Use the tools. <b>&</b> \u2028",
		Messages: []recovery.Message{
			{Role: "user", Text: "List the files, then read go.mod"},
			{Role: "assistant", Text: "Listing.", ToolCalls: []recovery.ToolCall{
				{ID: "toolu_1", Name: "ls", Input: json.RawMessage(`{ "dir" : ".", "n": [1, 2.5e3] }`)},
				{ID: "toolu_2", Name: "noop"},
			}},
			{Role: "user", ToolResults: []recovery.ToolResult{
				{ToolUseID: "toolu_1", Content: "go.mod\nmain.go <script>"},
				{ToolUseID: "toolu_2", Content: "failed: \xff bad byte", IsError: true},
			}},
			{Role: "assistant", ToolCalls: []recovery.ToolCall{{ID: "toolu_3", Name: "read", Input: json.RawMessage(`{"path":"go.mod"}`)}}},
			{Role: "user", Text: "and the \u00e9 \U0001F600 ones", ToolResults: []recovery.ToolResult{{ToolUseID: "toolu_3", Content: "module x"}}},
			{Role: "assistant", Text: ""},
		},
	}
}

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
			before := b.count()
			got := b.sent(p, req)
			want := b.sdkBody(t, req, stream)
			if b.count() != before+2 {
				t.Fatalf("stream=%v, %s: %d requests sent, want 2", stream, what, b.count()-before)
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
		if !bytes.Contains(b.last(), []byte(`"dir":"x"`)) {
			t.Fatalf("the input changed in place was not sent: %s", b.last())
		}
		check("no messages", recovery.Request{Model: "m", MaxTokens: 1, Messages: []recovery.Message{}})
	}
}
