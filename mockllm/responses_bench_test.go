package mockllm_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCodexResponse serves Codex 0.171.0's first Responses request
// (testdata/agents, streamed, with its tools, reasoning and text
// settings), whose three response objects each echo those settings, and
// reports the bytes sent back per request beside the allocations.
func BenchmarkCodexResponse(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "agents", "codex-0.171.0.json"))
	if err != nil {
		b.Fatal(err)
	}
	var f struct {
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		b.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(f.Body, &m); err != nil {
		b.Fatal(err)
	}
	m["model"] = "sonnet"
	body, err := json.Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	mock := benchMock(1000000, 100)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	sent := 0
	for b.Loop() {
		w := httptest.NewRecorder()
		mock.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/bench/v1/responses", bytes.NewReader(body)))
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
		sent += w.Body.Len()
	}
	b.ReportMetric(float64(sent)/float64(b.N), "answer-B/op")
}
