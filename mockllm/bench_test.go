package mockllm_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// benchMock serves one scenario, "bench", whose model is "sonnet".
func benchMock(window, answer int) *mockllm.Server {
	sc := &scenario.Scenario{
		Name:   "bench",
		Models: map[string]scenario.Model{"sonnet": {ContextWindow: window, MaxOutput: 64000}},
		Turn:   scenario.Turn{AnswerTokens: answer},
	}
	return mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
}

// conversation is a request body shaped as the SDK sends it: a system block
// of system tokens and twenty messages of one text block of per tokens.
func conversation(b *testing.B, system, per int) []byte {
	msgs := make([]any, 20)
	for i := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		msgs[i] = map[string]any{"role": role, "content": []any{map[string]any{"type": "text", "text": tokens.Text(per)}}}
	}
	body, err := json.Marshal(map[string]any{
		"model": "sonnet", "max_tokens": 4096,
		"system":   []any{map[string]any{"type": "text", "text": tokens.Text(system)}},
		"messages": msgs,
	})
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// baseline is a handler the mock is measured beside.
type baseline struct {
	name string
	h    http.Handler
}

// versus posts body over real loopback, with one shared client, from
// workers goroutines at once, to each baseline handler and to the mock,
// as sub-benchmarks, and reports unit per second for each.
func versus(b *testing.B, body []byte, workers int, bases []baseline, mock *mockllm.Server, unit string, perByte bool) {
	transport := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: workers + 4}
	client := &http.Client{Transport: transport}
	defer transport.CloseIdleConnections()

	for _, c := range append(bases, baseline{"mock", mock}) {
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
			if perByte {
				b.SetBytes(int64(len(body)))
			}
			b.ReportAllocs()
			b.ResetTimer()
			var next atomic.Int64
			var wg sync.WaitGroup
			for range workers {
				wg.Go(func() {
					for next.Add(1) <= int64(b.N) {
						resp, err := client.Post(url, "application/json", bytes.NewReader(body))
						if err != nil {
							b.Error(err)
							return
						}
						_, _ = io.Copy(io.Discard, resp.Body)
						_ = resp.Body.Close()
						if resp.StatusCode != http.StatusOK {
							b.Errorf("status %d", resp.StatusCode)
							return
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), unit)
			mock.Reset()
		})
	}
}

// BenchmarkSmallRequest puts the mock beside a bare net/http handler that
// answers a fixed JSON of the same size, with 1, 8 and 32 clients at once,
// and reports requests per second for each: the difference is what
// decoding, the script and the journal cost.
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
	for _, workers := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			versus(b, body, workers, []baseline{{"bare", bare}}, benchMock(200000, 8), "req/s", false)
		})
	}
}

// BenchmarkLargeRequest measures the mock alone (no network) on a 400 KB
// conversation, which its decoder reads in one pass, checking the syntax
// and measuring the texts in place.
func BenchmarkLargeRequest(b *testing.B) {
	body := conversation(b, 1000, 5000)
	mock := benchMock(200000, 500)
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

// wireRequest is a Messages request as encoding/json decodes it whole.
type wireRequest struct {
	Model     string      `json:"model"`
	MaxTokens int         `json:"max_tokens"`
	System    []wireBlock `json:"system"`
	Messages  []struct {
		Role    string      `json:"role"`
		Content []wireBlock `json:"content"`
	} `json:"messages"`
}

type wireBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// BenchmarkLargeRoundTrip sends a 200,000-token conversation (about 800 KB)
// to the mock and to two bare handlers, and reports round trips per second
// for each. echo reads the body and sends it back, decoding nothing: the
// cost of the bytes alone. decode decodes the whole body with
// encoding/json into the request's types and answers a short message: the
// fair physical limit of a server that reads what it is sent. The mock
// reads, checks and counts the body, and answers with a short message.
func BenchmarkLargeRoundTrip(b *testing.B) {
	body := conversation(b, 10000, 9500)
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(buf)
	})
	answer := []byte(`{"id":"msg_000000000000000000000000","type":"message","role":"assistant","model":"sonnet",` +
		`"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":200000,"output_tokens":1}}`)
	decode := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf, _ := io.ReadAll(r.Body)
		var req wireRequest
		if err := json.Unmarshal(buf, &req); err != nil || len(req.Messages) == 0 {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	versus(b, body, 1, []baseline{{"echo", echo}, {"decode", decode}}, benchMock(1000000, 500), "trips/s", true)
}
