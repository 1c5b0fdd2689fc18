package mockllm_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// BenchmarkSmallRequest puts the mock beside a bare net/http handler that
// answers a fixed JSON of the same size, both over real loopback with one
// shared client, and reports requests per second for each: the difference
// is what decoding, the script and the journal cost.
func BenchmarkSmallRequest(b *testing.B) {
	body := []byte(`{"model":"sonnet","max_tokens":64,"messages":[{"role":"user","content":"Hello, mock."}]}`)
	fixed := []byte(`{"id":"msg_000000000000000000000000","type":"message","role":"assistant","model":"sonnet",` +
		`"content":[{"type":"text","text":"tok tok tok tok tok tok tok tok "}],"stop_reason":"end_turn",` +
		`"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":8}}`)
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(fixed)
	})
	sc := &scenario.Scenario{
		Name:   "bench",
		Models: map[string]scenario.Model{"sonnet": {ContextWindow: 200000, MaxOutput: 64000}},
		Turn:   scenario.Turn{AnswerTokens: 8},
	}
	mock := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())

	transport := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4}
	client := &http.Client{Transport: transport}
	defer transport.CloseIdleConnections()

	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"bare", bare}, {"mock", mock}} {
		b.Run(c.name, func(b *testing.B) {
			ep, err := mockllm.Start(c.h, "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer func() {
				if err := ep.Close(); err != nil {
					b.Error(err)
				}
			}()
			url := ep.BaseURL("bench") + "v1/messages"
			b.ReportAllocs()
			for b.Loop() {
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			mock.Reset()
		})
	}
}

// BenchmarkLargeRequest measures the mock alone (no network) on a 400 KB
// conversation shaped as the SDK sends it: a system block and twenty
// messages of text blocks. encoding/json reads and checks the body; the
// decoder measures its texts in place.
func BenchmarkLargeRequest(b *testing.B) {
	msgs := make([]any, 20)
	for i := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		msgs[i] = map[string]any{"role": role, "content": []any{map[string]any{"type": "text", "text": tokens.Text(5000)}}}
	}
	body, err := json.Marshal(map[string]any{
		"model": "sonnet", "max_tokens": 4096,
		"system":   []any{map[string]any{"type": "text", "text": tokens.Text(1000)}},
		"messages": msgs,
	})
	if err != nil {
		b.Fatal(err)
	}
	sc := &scenario.Scenario{
		Name:   "bench",
		Models: map[string]scenario.Model{"sonnet": {ContextWindow: 200000, MaxOutput: 64000}},
		Turn:   scenario.Turn{AnswerTokens: 500},
	}
	mock := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		mock.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/bench/v1/messages", bytes.NewReader(body)))
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// BenchmarkLargeRoundTrip sends a 200,000-token conversation (about 800 KB,
// twenty text blocks as the SDK sends them) over loopback, to the mock and
// to a bare handler that echoes the body back, with one shared client, and
// reports round trips per second for each: the mock reads, checks and
// counts the body, and answers with a short message.
func BenchmarkLargeRoundTrip(b *testing.B) {
	msgs := make([]any, 20)
	for i := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		msgs[i] = map[string]any{"role": role, "content": []any{map[string]any{"type": "text", "text": tokens.Text(9500)}}}
	}
	body, err := json.Marshal(map[string]any{
		"model": "sonnet", "max_tokens": 4096,
		"system":   []any{map[string]any{"type": "text", "text": tokens.Text(10000)}},
		"messages": msgs,
	})
	if err != nil {
		b.Fatal(err)
	}
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(buf)
	})
	sc := &scenario.Scenario{
		Name:   "bench",
		Models: map[string]scenario.Model{"sonnet": {ContextWindow: 1000000, MaxOutput: 64000}},
		Turn:   scenario.Turn{AnswerTokens: 500},
	}
	mock := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
	transport := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4}
	client := &http.Client{Transport: transport}
	defer transport.CloseIdleConnections()

	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"echo", echo}, {"mock", mock}} {
		b.Run(c.name, func(b *testing.B) {
			ep, err := mockllm.Start(c.h, "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer func() {
				if err := ep.Close(); err != nil {
					b.Error(err)
				}
			}()
			url := ep.BaseURL("bench") + "v1/messages"
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "trips/s")
			mock.Reset()
		})
	}
}
