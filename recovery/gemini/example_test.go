package gemini_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"google.golang.org/genai"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/gemini"
)

// An engine in front of a Gemini client: here the server (on loopback)
// answers the first request with a 429 RESOURCE_EXHAUSTED whose
// RetryInfo asks for 14 s, in the body and in no header, then with an
// answer. classify reads the body's wait and waits it, on a virtual
// clock so that the example takes no time; the SDK's own retries are off.
func Example() {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"error":{"code":429,"message":"You exceeded your current quota. Please retry in 14s.","status":"RESOURCE_EXHAUSTED",`+
				`"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"14s"}]}}`)
			return
		}
		_, _ = io.WriteString(w, `{"candidates":[{"content":{"parts":[{"text":"Bonjour."}],"role":"model"},"finishReason":"STOP","index":0}],`+
			`"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":3,"totalTokenCount":12},"modelVersion":"gemini-example"}`)
	}))
	defer srv.Close()

	provider, err := gemini.New(context.Background(), genai.ClientConfig{APIKey: "example-key", HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL}})
	if err != nil {
		fmt.Println(err)
		return
	}
	engine := recovery.New(provider, recovery.Classifying(),
		recovery.WithClock(clock.NewVirtual()),
		recovery.WithRand(rand.New(rand.NewPCG(1, 2))),
	)
	res, err := engine.Do(context.Background(), recovery.Request{
		Model:     "gemini-example",
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
	// Bonjour. end_turn
	// attempts: 2 waited: 14s
}
