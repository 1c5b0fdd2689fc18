package mockllm_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// pairsBody is a request to path (one of the three wires) whose
// conversation is n tool calls, all made in one assistant turn, and their
// n answers: the shape that a quadratic pairing check turns into minutes.
func pairsBody(path string, n int) []byte {
	var b bytes.Buffer
	id := func(i int) string { return "call_" + strconv.Itoa(i) }
	list := func(each func(i int)) {
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			each(i)
		}
	}
	switch {
	case strings.HasSuffix(path, "/v1/messages"):
		b.WriteString(`{"model":"sonnet","max_tokens":100,"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[`)
		list(func(i int) {
			b.WriteString(`{"type":"tool_use","id":"` + id(i) + `","name":"ls","input":{"path":"."}}`)
		})
		b.WriteString(`]},{"role":"user","content":[`)
		list(func(i int) { b.WriteString(`{"type":"tool_result","tool_use_id":"` + id(i) + `","content":"ok"}`) })
		b.WriteString(`]}]}`)
	case strings.HasSuffix(path, "/v1/chat/completions"):
		b.WriteString(`{"model":"sonnet","messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[`)
		list(func(i int) {
			b.WriteString(`{"id":"` + id(i) + `","type":"function","function":{"name":"ls","arguments":"{}"}}`)
		})
		b.WriteString(`]},`)
		list(func(i int) { b.WriteString(`{"role":"tool","tool_call_id":"` + id(i) + `","content":"ok"}`) })
		b.WriteString(`]}`)
	default:
		b.WriteString(`{"model":"sonnet","input":[{"role":"user","content":"go"},`)
		list(func(i int) {
			b.WriteString(`{"type":"function_call","call_id":"` + id(i) + `","name":"ls","arguments":"{}"}`)
		})
		b.WriteByte(',')
		list(func(i int) { b.WriteString(`{"type":"function_call_output","call_id":"` + id(i) + `","output":"ok"}`) })
		b.WriteString(`]}`)
	}
	return b.Bytes()
}

// plainBody is a request to path of the same size as like: one message
// of text.
func plainBody(path string, like int) []byte {
	head, tail := `{"model":"sonnet","max_tokens":100,"messages":[{"role":"user","content":"`, `"}]}`
	switch {
	case strings.HasSuffix(path, "/v1/chat/completions"):
		head = `{"model":"sonnet","messages":[{"role":"user","content":"`
	case strings.HasSuffix(path, "/v1/responses"):
		head, tail = `{"model":"sonnet","input":"`, `"}`
	}
	return []byte(head + strings.Repeat("a", like-len(head)-len(tail)) + tail)
}

// BenchmarkToolPairs serves a body of 80,000 tool calls and their answers
// (about 8.5 MB) on each wire, beside a plain body of the same size: the
// pairing checks are linear, so the two cost about the same (well under
// 0.2 s of serve CPU each). cpu-s/op is the processor time of one request
// (the process's, user and system, garbage collection included), which a
// busy machine does not inflate as it does ns/op.
func BenchmarkToolPairs(b *testing.B) {
	sc := &scenario.Scenario{Name: "bench", Models: map[string]scenario.Model{"sonnet": {}}, Turn: scenario.Turn{AnswerTokens: 10}}
	srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
	for _, wire := range []struct{ name, path string }{
		{"anthropic", "/bench/v1/messages"}, {"chat", "/bench/v1/chat/completions"}, {"responses", "/bench/v1/responses"},
	} {
		pairs := pairsBody(wire.path, 80000)
		for _, body := range []struct {
			name string
			b    []byte
		}{{"pairs", pairs}, {"plain", plainBody(wire.path, len(pairs))}} {
			b.Run(wire.name+"/"+body.name, func(b *testing.B) {
				b.SetBytes(int64(len(body.b)))
				start, cpuOK := cpuTime()
				for b.Loop() {
					w := httptest.NewRecorder()
					srv.ServeHTTP(w, httptest.NewRequest(http.MethodPost, wire.path, bytes.NewReader(body.b)))
					if w.Code != http.StatusOK {
						b.Fatalf("%d: %.300s", w.Code, w.Body.String())
					}
				}
				if end, ok := cpuTime(); ok && cpuOK {
					b.ReportMetric((end-start).Seconds()/float64(b.N), "cpu-s/op")
				}
			})
		}
	}
}

// A body read in one pass is still validated whole when that pass stops
// short: bytes after a good object make it no JSON, on every wire.
func TestTrailingBytesAreUnparsable(t *testing.T) {
	sc := &scenario.Scenario{Name: "bench", Models: map[string]scenario.Model{"sonnet": {}}, Turn: scenario.Turn{AnswerTokens: 10}}
	srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
	for _, path := range []string{"/bench/v1/messages", "/bench/v1/chat/completions", "/bench/v1/responses"} {
		body := append(plainBody(path, 200), " x"...)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body)))
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %.200s, want 400 for bytes after the object", path, w.Code, w.Body.String())
		}
	}
}
