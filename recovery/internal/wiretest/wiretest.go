package wiretest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/faultbench/faultbench/recovery"
)

// Bodies is a loopback server that keeps every request body and answers
// each with a 400 whose body is the wire's error, which is all the body
// tests need.
type Bodies struct {
	// URL is the server's address, http://127.0.0.1:port.
	URL string

	mu  sync.Mutex
	got [][]byte
}

// NewBodies starts a Bodies answering errBody; t closes it.
func NewBodies(t testing.TB, errBody string) *Bodies {
	b := &Bodies{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.got = append(b.got, raw)
		b.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, errBody)
	}))
	t.Cleanup(srv.Close)
	b.URL = srv.URL
	return b
}

// Last is the body of the last request.
func (b *Bodies) Last() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.got[len(b.got)-1]
}

// Count is how many requests came.
func (b *Bodies) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.got)
}

// AgentHistory is an agent's conversation for model, its tool calls'
// IDs prefixed with id ("toolu_", "call_"): tool calls with and without
// input, a failed tool result with a byte that is not UTF-8, text beside
// tool results, an empty answer, and characters a JSON encoder may escape.
func AgentHistory(model, id string) recovery.Request {
	return recovery.Request{
		Model:     model,
		MaxTokens: 4096,
		System:    "Use the tools. <b>&</b> \u2028",
		Messages: []recovery.Message{
			{Role: "user", Text: "List the files, then read go.mod"},
			{Role: "assistant", Text: "Listing.", ToolCalls: []recovery.ToolCall{
				{ID: id + "1", Name: "ls", Input: json.RawMessage(`{ "dir" : ".", "n": [1, 2.5e3] }`)},
				{ID: id + "2", Name: "noop"},
			}},
			{Role: "user", ToolResults: []recovery.ToolResult{
				{ToolUseID: id + "1", Content: "go.mod\nmain.go <script>"},
				{ToolUseID: id + "2", Content: "failed: \xff bad byte", IsError: true},
			}},
			{Role: "assistant", ToolCalls: []recovery.ToolCall{{ID: id + "3", Name: "read", Input: json.RawMessage(`{"path":"go.mod"}`)}}},
			{Role: "user", Text: "and the \u00e9 \U0001F600 ones", ToolResults: []recovery.ToolResult{{ToolUseID: id + "3", Content: "module x"}}},
			{Role: "assistant", Text: ""},
		},
	}
}
