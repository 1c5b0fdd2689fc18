package proptest

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
)

// The properties of the cross-turn policies, on generated fleets
// (FleetScenario). Each holds trivially for a strategy without the policy
// it is about; docs/mutation.md's mutants of each policy break it.

// RetriesWithinBudget: a workload of N turns sends at most N × (1 +
// ratio) + min_retries × the budget windows it spans attempts
// (recovery.RetryBudget).
func RetriesWithinBudget(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		sc := FleetScenario(0).Draw(t, "fleet")
		rep := Run(t, sc, strategies...)
		for _, r := range rep.Results {
			s := named[r.Strategy]
			if r.Workload == nil {
				t.Fatalf("%s: a workload result without its workload figures", r.Strategy)
			}
			b := s.RetryBudget
			if !b.Enabled {
				continue
			}
			var ratio, floor float64
			window := b.Window
			if window <= 0 {
				window = 10 * time.Second
			}
			ratio, floor = b.Ratio, float64(b.MinRetries)
			windows := float64(r.Workload.MakespanMS/window.Milliseconds() + 1)
			bound := float64(sc.Workload.Turns)*(1+ratio) + floor*windows
			if float64(r.Attempts) > bound+1e-9 {
				t.Fatalf("%s sent %d attempts for %d turns, above %d × (1 + %g) + %g × %g windows: %s", r.Strategy, r.Attempts,
					sc.Workload.Turns, sc.Workload.Turns, ratio, floor, windows, settingOf(s))
			}
		}
	}
}

// LimiterReleasesIntoRoom: with one turn in flight, so that nothing else
// is admitted between an answer and the next request, no request is
// refused by a bucket: the rate-limit headers of the answer before it
// said whether the bucket had room, and the limiter holds a request until
// it has (recovery.RateLimiter). It fails for a strategy whose max_wait is
// shorter than a bucket takes to refill.
func LimiterReleasesIntoRoom(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		rep := Run(t, FleetScenario(1).Draw(t, "fleet"), strategies...)
		for _, r := range rep.Results {
			s := named[r.Strategy]
			if !s.RateLimiter.Enabled {
				continue
			}
			for _, a := range r.AttemptsLog {
				if a.Status == 429 {
					t.Fatalf("%s: turn %d's attempt %d was refused by a bucket whose headers it had read: %s", r.Strategy, a.Turn, a.N,
						settingOf(s, shortMaxWait))
				}
			}
		}
	}
}

// HalfOpenLetsOneProbe: after the breaker's threshold of consecutive
// overloads across turns and its delay, one request (the probe) goes to
// the model; while it is out, no other turn sends to the model
// (recovery.CircuitBreaker). The turns run one Engine directly on a
// virtual clock, the probe held in flight while 1 to 4 other turns run.
func HalfOpenLetsOneProbe(strategies ...recovery.Strategy) func(*rapid.T) {
	return func(t *rapid.T) {
		others := rapid.IntRange(1, 4).Draw(t, "others")
		extra := time.Duration(rapid.IntRange(0, 5000).Draw(t, "after_delay_ms")) * time.Millisecond
		for _, s := range strategies {
			if !s.CircuitBreaker.Enabled {
				continue
			}
			if n := probeCompanions(s, others, extra); n > 0 {
				t.Fatalf("%s: %d requests went to the model while the half-open breaker's probe was out: %s", s.Name, n, settingOf(s))
			}
		}
	}
}

// probeCompanions runs the probe scenario on s and returns how many
// requests other turns sent while the probe was out.
func probeCompanions(s recovery.Strategy, others int, extra time.Duration) int {
	cb := s.CircuitBreaker
	threshold, delay := cb.FailureThreshold, cb.Delay
	if threshold <= 0 {
		threshold = 5
	}
	if delay <= 0 {
		delay = 30 * time.Second
	}
	clk := clock.NewVirtual()
	var mu sync.Mutex
	phase, sends, companions := 1, 0, 0
	probeOut, release := make(chan struct{}), make(chan struct{})
	p := recovery.ProviderFunc(func(_ context.Context, _ recovery.Request) (*recovery.Response, error) {
		mu.Lock()
		switch phase {
		case 1:
			sends++
		case 2:
			phase = 3
			mu.Unlock()
			close(probeOut)
			<-release
			return &recovery.Response{Text: "fine", StopReason: "end_turn", OutputTokens: 1}, nil
		default:
			companions++
		}
		mu.Unlock()
		return nil, &recovery.APIError{StatusCode: 529, Type: "overloaded_error", Message: "Overloaded"}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	holds := 0
	e := recovery.New(p, s, recovery.WithClock(clk), recovery.WithRand(rand.New(rand.NewPCG(1, 2))),
		recovery.WithObserver(func(ev recovery.Event) {
			// A request waiting for a slot the held probe has would wait
			// for ever on a virtual clock: end it.
			if ev.Type == recovery.EventHold {
				if holds++; holds > 1000 {
					cancel()
				}
			}
		}))
	req := recovery.Request{Model: "primary", MaxTokens: 64, Messages: []recovery.Message{{Role: "user", Text: "hello"}}}
	for range threshold {
		mu.Lock()
		n := sends
		mu.Unlock()
		if n >= threshold {
			break
		}
		_, _ = e.Do(ctx, req)
	}
	clk.Advance(delay + extra)
	mu.Lock()
	phase = 2
	mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = e.Do(context.Background(), req)
	}()
	<-probeOut
	for range others {
		_, _ = e.Do(ctx, req)
	}
	close(release)
	<-done
	mu.Lock()
	defer mu.Unlock()
	return companions
}
