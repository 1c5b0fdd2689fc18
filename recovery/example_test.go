package recovery_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
)

// A Provider that is overloaded twice, then answers. Any client fits
// through ProviderFunc; recovery/anthropic and recovery/openai wrap the
// official SDKs.
func overloadedTwice() recovery.Provider {
	calls := 0
	return recovery.ProviderFunc(func(_ context.Context, req recovery.Request) (*recovery.Response, error) {
		calls++
		if calls <= 2 {
			return nil, &recovery.APIError{StatusCode: 529, Type: "overloaded_error", Message: "Overloaded"}
		}
		return &recovery.Response{Model: req.Model, Text: "Paris.", StopReason: "end_turn"}, nil
	})
}

// The engine retries the overloads with its backoff (1 s, then 2 s) and
// hands back the answer. The virtual clock makes the waits instant; in
// production leave WithClock out and the engine sleeps for real.
func Example() {
	engine := recovery.New(overloadedTwice(), recovery.Classifying(),
		recovery.WithClock(clock.NewVirtual()),
		recovery.WithObserver(func(e recovery.Event) {
			switch e.Type {
			case recovery.EventAttempt:
				fmt.Println("attempt", e.Attempt, e.Failure.Kind)
			case recovery.EventWait:
				fmt.Println("wait", e.Wait)
			}
		}),
	)
	res, err := engine.Do(context.Background(), recovery.Request{
		Model: "claude-sonnet-4-5", MaxTokens: 1024,
		Messages: []recovery.Message{{Role: "user", Text: "The capital of France?"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Response.Text, res.Attempts, res.Waited)
	// Output:
	// attempt 1 overloaded
	// wait 1s
	// attempt 2 overloaded
	// wait 2s
	// attempt 3 ok
	// Paris. 3 3s
}

// When the engine gives up, the error says why (a sentinel per reason),
// and still holds the API's own error.
func ExampleGiveUpError() {
	forbidden := recovery.ProviderFunc(func(context.Context, recovery.Request) (*recovery.Response, error) {
		return nil, &recovery.APIError{StatusCode: 503, Type: "api_error", Message: "maintenance",
			Header: http.Header{"X-Should-Retry": {"false"}}}
	})
	engine := recovery.New(forbidden, recovery.Classifying(), recovery.WithClock(clock.NewVirtual()))
	_, err := engine.Do(context.Background(), recovery.Request{Model: "m", MaxTokens: 10,
		Messages: []recovery.Message{{Role: "user", Text: "hi"}}})

	fmt.Println(errors.Is(err, recovery.ErrGaveUp), errors.Is(err, recovery.ErrServerSaidNo))
	var apiErr *recovery.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Message)
	}
	if g, ok := recovery.AsGiveUp(err); ok {
		fmt.Println(g.Kind, g.Stop, g.Attempts)
	}
	// Output:
	// true true
	// 503 maintenance
	// server server_said_no 1
}

// A request marked Background gives up on the first overload instead of
// adding to the load (Claude Code's load shedding).
func ExampleRequest_background() {
	engine := recovery.New(overloadedTwice(), recovery.Classifying(), recovery.WithClock(clock.NewVirtual()))
	res, err := engine.Do(context.Background(), recovery.Request{Model: "m", MaxTokens: 10, Background: true,
		Messages: []recovery.Message{{Role: "user", Text: "Title this conversation."}}})
	fmt.Println(errors.Is(err, recovery.ErrShed), res.Attempts, res.Waited)
	// Output:
	// true 1 0s
}

// A strategy with AuthRefresh calls the hook once on a 401, then resends.
func ExampleWithAuthRefresh() {
	token := "expired"
	provider := recovery.ProviderFunc(func(context.Context, recovery.Request) (*recovery.Response, error) {
		if token == "expired" {
			return nil, &recovery.APIError{StatusCode: 401, Type: "authentication_error", Message: "invalid x-api-key"}
		}
		return &recovery.Response{Text: "ok", StopReason: "end_turn"}, nil
	})
	engine := recovery.New(provider, recovery.Classifying(),
		recovery.WithClock(clock.NewVirtual()),
		recovery.WithAuthRefresh(func(context.Context) error { token = "fresh"; return nil }),
	)
	res, err := engine.Do(context.Background(), recovery.Request{Model: "m", MaxTokens: 10,
		Messages: []recovery.Message{{Role: "user", Text: "hi"}}})
	fmt.Println(res.Response.Text, res.Attempts, err)
	// Output:
	// ok 2 <nil>
}

// RateLimitReset reads when the window that stopped a request opens again;
// the window with nothing remaining decides.
func ExampleRateLimitReset() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{}
	h.Set("anthropic-ratelimit-requests-remaining", "12")
	h.Set("anthropic-ratelimit-requests-reset", "2026-01-01T00:00:03Z")
	h.Set("anthropic-ratelimit-input-tokens-remaining", "0")
	h.Set("anthropic-ratelimit-input-tokens-reset", "2026-01-01T00:00:20Z")
	d, _ := recovery.RateLimitReset(h, now)
	fmt.Println(d)

	o := http.Header{}
	o.Set("x-ratelimit-remaining-tokens", "0")
	o.Set("x-ratelimit-reset-tokens", "6m0s")
	d, _ = recovery.RateLimitReset(o, now)
	fmt.Println(d)
	// Output:
	// 20s
	// 6m0s
}

// A seeded random source replays the jitter exactly.
func ExampleBackoff() {
	b := recovery.ClaudeCode().Backoff // 500 ms doubling to 32 s, +0–25 %
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 8 {
		lo, hi := b.Bounds(i)
		d := b.Delay(i, r)
		fmt.Println(i, lo, hi, d >= lo && d <= hi)
	}
	// Output:
	// 0 500ms 625ms true
	// 1 1s 1.25s true
	// 2 2s 2.5s true
	// 3 4s 5s true
	// 4 8s 10s true
	// 5 16s 20s true
	// 6 32s 40s true
	// 7 32s 40s true
}
