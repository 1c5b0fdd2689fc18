package proptest

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/ledger"
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
			window := s.Effective().RetryBudget.Window
			ratio, floor = b.Ratio, float64(b.MinRetries)
			windows := float64(r.Workload.MakespanMS/window.Milliseconds() + 1)
			bound := float64(sc.Workload.Turns)*(1+ratio) + floor*windows
			if float64(r.Attempts) > bound+1e-9 {
				t.Fatalf("%s sent %d attempts for %d turns, above %d × (1 + %g) + %g × %g windows: %s", r.Strategy, r.Attempts,
					sc.Workload.Turns, sc.Workload.Turns, ratio, floor, windows, settingOf(s))
			}
			if s.RateLimiter.Enabled || s.AdaptiveLimiter.Enabled {
				continue // a limiter's hold lies between the budget's count and the send
			}
			if k, retries, requests, over := overBudgetWindow(r.AttemptsLog, window, ratio, floor); over {
				t.Fatalf("%s sent %d retries in budget window %d (from %s) against %d requests in it, above %g × %d + %g: %s", r.Strategy,
					retries, k, time.Duration(k)*window, requests, ratio, requests, floor, settingOf(s))
			}
		}
	}
}

// overBudgetWindow checks the budget window by window: the windows are
// fixed, one after another from the first attempt (the Engine's first
// request), and within each, retries ≤ ratio × requests + floor, where a
// request is a turn's first attempt. It returns the first window over.
// Without a limiter an attempt is counted when it is sent, at its at_ms
// less its duration_ms; both are whole milliseconds, so an attempt within
// 2 ms of a window's edge is given the benefit of the doubt: as a request
// it counts in both windows, as a retry in neither.
func overBudgetWindow(log []ledger.Attempt, window time.Duration, ratio, floor float64) (k int64, retries, requests int, over bool) {
	if len(log) == 0 {
		return 0, 0, 0, false
	}
	w := window.Milliseconds()
	first := log[0].AtMS - log[0].DurationMS
	for _, a := range log {
		first = min(first, a.AtMS-a.DurationMS)
	}
	type counts struct{ requests, retries int }
	per := map[int64]*counts{}
	at := func(k int64) *counts {
		if per[k] == nil {
			per[k] = &counts{}
		}
		return per[k]
	}
	seen := map[int]bool{}
	for _, a := range log {
		sent := a.AtMS - a.DurationMS - first
		lo, hi := (sent-2)/w, (sent+2)/w
		if sent < 2 {
			lo = 0
		}
		request := !seen[a.Turn]
		seen[a.Turn] = true
		switch {
		case request:
			for k := lo; k <= hi; k++ {
				at(k).requests++
			}
		case lo == hi:
			at(lo).retries++
		}
	}
	keys := make([]int64, 0, len(per))
	for k := range per {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		c := per[k]
		if float64(c.retries) > ratio*float64(c.requests)+floor+1e-9 {
			return k, c.retries, c.requests, true
		}
	}
	return 0, 0, 0, false
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
	cb := s.Effective().CircuitBreaker
	threshold, delay := cb.FailureThreshold, cb.Delay
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
