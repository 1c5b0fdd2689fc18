package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

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
		_, _ = io.WriteString(w, `{"error":{"type":"invalid_request_error","message":"recorded"}}`)
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
	return []option.RequestOption{option.WithBaseURL(b.srv.URL + "/v1/"), option.WithAPIKey("k"), option.WithMaxRetries(0)}
}

func agentHistory() recovery.Request {
	return recovery.Request{
		Model:     "gpt-test",
		MaxTokens: 4096,
		System:    "Use the tools. <b>&</b> \u2028",
		Messages: []recovery.Message{
			{Role: "user", Text: "List the files, then read go.mod"},
			{Role: "assistant", Text: "Listing.", ToolCalls: []recovery.ToolCall{
				{ID: "call_1", Name: "ls", Input: json.RawMessage(`{ "dir" : ".", "n": [1, 2.5e3] }`)},
				{ID: "call_2", Name: "noop"},
			}},
			{Role: "user", ToolResults: []recovery.ToolResult{
				{ToolUseID: "call_1", Content: "go.mod\nmain.go <script>"},
				{ToolUseID: "call_2", Content: "failed: \xff bad byte", IsError: true},
			}},
			{Role: "assistant", ToolCalls: []recovery.ToolCall{{ID: "call_3", Name: "read", Input: json.RawMessage(`{"path":"go.mod"}`)}}},
			{Role: "user", Text: "and the \u00e9 \U0001F600 ones", ToolResults: []recovery.ToolResult{{ToolUseID: "call_3", Content: "module x"}}},
			{Role: "assistant", Text: ""},
		},
	}
}

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
			before := b.count()
			_, _ = p.Send(context.Background(), req)
			got := b.last()
			params, err := p.params(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = client.Chat.Completions.New(context.Background(), params)
			want := b.last()
			if b.count() != before+2 {
				t.Fatalf("legacy=%v, %s: %d requests sent, want 2", legacy, what, b.count()-before)
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
		if !bytes.Contains(b.last(), []byte(`\"dir\" : \"x\"`)) {
			t.Fatalf("the input changed in place was not sent: %s", b.last())
		}
	}
}
