package openai_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/openai"
)

// An engine in front of an OpenAI client: here the server (on loopback)
// answers the first request with a 429 that asks for 2 s, then with an
// answer. The engine waits what the server asked, on a virtual clock so
// that the example takes no time, and resends once; the SDK's own retries
// are off.
func Example() {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if calls.Add(1) == 1 {
			w.Header().Set("retry-after", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"error":{"message":"Rate limit reached for gpt-example. Please try again in 2s.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1767225600,"model":"gpt-example",`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":"Bonjour."},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}`)
	}))
	defer srv.Close()

	provider := openai.New(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-example"))
	clk := clock.NewVirtual()
	engine := recovery.New(provider, recovery.Classifying(),
		recovery.WithClock(clk),
		recovery.WithRand(rand.New(rand.NewPCG(1, 2))),
	)
	res, err := engine.Do(context.Background(), recovery.Request{
		Model:     "gpt-example",
		MaxTokens: 256,
		Messages:  []recovery.Message{{Role: "user", Text: "Say hello in French."}},
	})
	if errors.Is(err, recovery.ErrGaveUp) {
		fmt.Println("gave up:", err)
		return
	}
	fmt.Println(res.Response.Text, res.Response.StopReason)
	fmt.Println("attempts:", res.Attempts, "waited:", res.Waited)
	// Output:
	// Bonjour. stop
	// attempts: 2 waited: 2s
}
