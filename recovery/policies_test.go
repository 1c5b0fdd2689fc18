package recovery_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/within"
	"github.com/faultbench/faultbench/recovery"
)

// fleet is one Engine that runs turns one after the other on a virtual
// clock, so that the cross-turn policies' state carries from turn to turn.
type fleet struct {
	clk    *clock.Virtual
	e      *recovery.Engine
	sends  []time.Time // when each request was sent
	events []recovery.Event
}

func newFleet(s recovery.Strategy, script func(n int, now time.Time, r recovery.Request) answer, opts ...recovery.Option) *fleet {
	f := &fleet{clk: clock.NewVirtual()}
	p := recovery.ProviderFunc(func(_ context.Context, r recovery.Request) (*recovery.Response, error) {
		f.sends = append(f.sends, f.clk.Now())
		a := script(len(f.sends), f.clk.Now(), r)
		return a.resp, a.err
	})
	f.e = recovery.New(p, s, append([]recovery.Option{
		recovery.WithClock(f.clk),
		recovery.WithRand(rand.New(rand.NewPCG(1, 2))),
		recovery.WithObserver(func(e recovery.Event) { f.events = append(f.events, e) }),
	}, opts...)...)
	return f
}

func (f *fleet) turn(model string) (int, recovery.Stop) {
	before := len(f.sends)
	_, err := f.e.Do(context.Background(), turnOf(model, 100, 1, 50))
	var stop recovery.Stop
	if g, ok := recovery.AsGiveUp(err); ok {
		stop = g.Stop
	}
	return len(f.sends) - before, stop
}

func (f *fleet) of(t recovery.EventType) []recovery.Event {
	var out []recovery.Event
	for _, e := range f.events {
		if e.Type == t {
			out = append(out, e)
		}
	}
	return out
}

// withHeaders is a complete answer carrying headers.
func withHeaders(kv ...string) answer {
	a := ok("fine")
	a.resp.Header = status(200, "", "", kv...).err.(*recovery.APIError).Header
	return a
}

func classifyOnly() recovery.Strategy {
	s := recovery.Classifying()
	s.Fallback.After = 0
	return s
}

var _ = Describe("The rate limiter", func() {
	var s recovery.Strategy
	BeforeEach(func() {
		s = classifyOnly()
		s.RateLimiter = recovery.RateLimiter{Enabled: true}
	})

	It("holds the next turn until the requests bucket, refilling towards its reset, has one", func() {
		f := newFleet(s, func(_ int, now time.Time, _ recovery.Request) answer {
			return withHeaders("anthropic-ratelimit-requests-limit", "10", "anthropic-ratelimit-requests-remaining", "0",
				"anthropic-ratelimit-requests-reset", now.Add(6*time.Second).Format(time.RFC3339))
		})
		f.turn("m")
		f.turn("m")
		Expect(f.sends[1].Sub(f.sends[0])).To(Equal(601 * time.Millisecond)) // 10 requests over 6 s, past the next ms
		holds := f.of(recovery.EventHold)
		Expect(holds).To(HaveLen(1))
		Expect(holds[0].Reason).To(Equal("rate limiter: anthropic-ratelimit-requests-remaining"))
		Expect(f.of(recovery.EventWait)).To(BeEmpty(), "a hold is not a retry's wait")
	})

	It("reads OpenAI's duration resets and charges input plus max_tokens to the tokens bucket", func() {
		f := newFleet(s, func(int, time.Time, recovery.Request) answer {
			return withHeaders("x-ratelimit-limit-tokens", "1000", "x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "6s")
		})
		f.turn("m")
		f.turn("m")
		need := recovery.CountTokens(turnOf("m", 100, 1, 50)) + 100
		Expect(f.sends[1].Sub(f.sends[0])).To(BeNumerically("~", time.Duration(need)*6*time.Millisecond, 2*time.Millisecond))
	})

	It("counts what it released: the second of two requests on one remaining waits", func() {
		n := 0
		f := newFleet(s, func(_ int, now time.Time, _ recovery.Request) answer {
			n++
			if n > 1 {
				return ok("fine") // no headers: only the first answer taught the limiter
			}
			return withHeaders("anthropic-ratelimit-requests-limit", "60", "anthropic-ratelimit-requests-remaining", "1",
				"anthropic-ratelimit-requests-reset", now.Add(59*time.Second).Format(time.RFC3339))
		})
		f.turn("m")
		f.turn("m") // takes the one remaining
		f.turn("m") // must wait a second's refill
		Expect(f.sends[1]).To(Equal(f.sends[0]))
		Expect(f.sends[2].Sub(f.sends[1])).To(Equal(time.Second + time.Millisecond))
	})

	It("without a limit header waits for the reset itself", func() {
		f := newFleet(s, func(_ int, now time.Time, _ recovery.Request) answer {
			return withHeaders("anthropic-ratelimit-input-tokens-remaining", "0",
				"anthropic-ratelimit-input-tokens-reset", now.Add(5*time.Second).Format(time.RFC3339))
		})
		f.turn("m")
		f.turn("m")
		Expect(f.sends[1].Sub(f.sends[0])).To(Equal(5 * time.Second))
	})

	It("holds no longer than max_wait, then sends", func() {
		s.RateLimiter.MaxWait = time.Second
		// Bounded: a limiter that kept holding past max_wait would hold for
		// nothing, again and again, on the virtual clock; the turn is
		// cancelled at its 100th hold, so the spec fails instead of spinning.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		holds := 0
		f := newFleet(s, func(_ int, now time.Time, _ recovery.Request) answer {
			return withHeaders("anthropic-ratelimit-requests-remaining", "0",
				"anthropic-ratelimit-requests-reset", now.Add(10*time.Minute).Format(time.RFC3339))
		}, recovery.WithObserver(func(e recovery.Event) {
			if e.Type == recovery.EventHold {
				if holds++; holds == 100 {
					cancel()
				}
			}
		}))
		for range 2 {
			_, err := f.e.Do(ctx, turnOf("m", 100, 1, 50))
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(f.sends).To(HaveLen(2))
		Expect(f.sends[1].Sub(f.sends[0])).To(Equal(time.Second))
		Expect(holds).To(Equal(1))
	})

	It("never holds a request that costs more than the bucket's limit", func() {
		f := newFleet(s, func(_ int, now time.Time, _ recovery.Request) answer {
			return withHeaders("anthropic-ratelimit-output-tokens-limit", "50", "anthropic-ratelimit-output-tokens-remaining", "0",
				"anthropic-ratelimit-output-tokens-reset", now.Add(time.Minute).Format(time.RFC3339))
		})
		f.turn("m")
		f.turn("m") // max_tokens 100 > 50
		Expect(f.sends[1]).To(Equal(f.sends[0]))
	})

	It("ends a hold when the context ends, sending nothing", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sent := 0
		clk := clock.NewVirtual()
		p := recovery.ProviderFunc(func(context.Context, recovery.Request) (*recovery.Response, error) {
			sent++
			a := withHeaders("anthropic-ratelimit-requests-remaining", "0",
				"anthropic-ratelimit-requests-reset", clk.Now().Add(time.Minute).Format(time.RFC3339))
			return a.resp, a.err
		})
		e := recovery.New(p, s, recovery.WithClock(clk), recovery.WithObserver(func(ev recovery.Event) {
			if ev.Type == recovery.EventHold {
				cancel()
			}
		}))
		_, err := e.Do(ctx, turnOf("m", 100, 1, 50))
		Expect(err).NotTo(HaveOccurred())
		_, err = e.Do(ctx, turnOf("m", 100, 1, 50))
		Expect(err).To(MatchError(recovery.ErrCancelled))
		Expect(sent).To(Equal(1))
	})
})

var _ = Describe("The retry budget", func() {
	It("allows ratio × requests + min_retries retries per window, then fails fast", func() {
		s := classifyOnly()
		s.RetryBudget = recovery.RetryBudget{Enabled: true, Ratio: 0, MinRetries: 2, Window: time.Minute}
		f := newFleet(s, func(int, time.Time, recovery.Request) answer { return overloaded })
		sent, stop := f.turn("m")
		Expect(sent).To(Equal(3))
		Expect(stop).To(Equal(recovery.StopRetryBudget))
		Expect(f.of(recovery.EventWait)).To(HaveLen(2), "no wait before giving up on the budget")
		sent, stop = f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{1, recovery.StopRetryBudget}))
		f.clk.Advance(time.Minute)
		sent, _ = f.turn("m")
		Expect(sent).To(Equal(3), "a new window, a new floor")
	})

	It("grows with the requests: 0.5 × 5 requests is 2 retries", func() {
		s := classifyOnly()
		s.RetryBudget = recovery.RetryBudget{Enabled: true, Ratio: 0.5, Window: time.Hour}
		f, failing := budgetFleet(s)
		for range 4 {
			f.turn("m")
		}
		*failing = true
		sent, stop := f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{3, recovery.StopRetryBudget}))
		_, err := f.e.Do(context.Background(), turnOf("m", 100, 1, 50))
		Expect(errors.Is(err, recovery.ErrRetryBudget)).To(BeTrue())
	})

	// A window that rolls over forgets everything it counted: the requests
	// of earlier windows earn no retries in a later one. (A budget that kept
	// them would let the allowance grow without bound over a long run.)
	It("earns nothing in a new window from the requests of the windows before", func() {
		s := classifyOnly()
		s.RetryBudget = recovery.RetryBudget{Enabled: true, Ratio: 0.5, Window: time.Minute}
		f, failing := budgetFleet(s)
		for range 4 {
			sent, stop := f.turn("m")
			Expect([]any{sent, stop}).To(Equal([]any{1, recovery.Stop("")}))
		}
		f.clk.Advance(time.Minute)
		*failing = true
		sent, stop := f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{1, recovery.StopRetryBudget}),
			"one request in the new window earns 0.5 of a retry: none")
		f.clk.Advance(time.Minute)
		*failing = false
		for range 3 {
			f.turn("m")
		}
		*failing = true
		sent, stop = f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{3, recovery.StopRetryBudget}),
			"four requests in this window earn 2 retries, whatever earlier windows counted")
	})
})

var _ = Describe("The circuit breaker", func() {
	var s recovery.Strategy
	BeforeEach(func() {
		s = classifyOnly()
		s.CircuitBreaker = recovery.CircuitBreaker{Enabled: true, FailureThreshold: 3, Delay: 10 * time.Second}
	})

	It("opens after consecutive overloads across turns, fails fast, and probes once after the delay", func() {
		healthy := false
		f := newFleet(s, func(int, time.Time, recovery.Request) answer {
			if healthy {
				return ok("fine")
			}
			return overloaded
		})
		sent, stop := f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{3, recovery.StopCircuitOpen}))
		sent, stop = f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{0, recovery.StopCircuitOpen}))
		f.clk.Advance(10 * time.Second)
		sent, stop = f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{1, recovery.StopCircuitOpen}), "the probe failed: open again")
		f.clk.Advance(10 * time.Second)
		healthy = true
		sent, stop = f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{1, recovery.Stop("")}))
		var path []string
		for _, e := range f.of(recovery.EventCircuit) {
			path = append(path, e.From+">"+e.To)
		}
		Expect(path).To(Equal([]string{"closed>open", "open>half_open", "half_open>open", "open>half_open", "half_open>closed"}))
	})

	It("sends a turn that has a fallback model to it while the breaker is open", func() {
		f := newFleet(s, func(_ int, _ time.Time, r recovery.Request) answer {
			if r.Model == "m" {
				return overloaded
			}
			return ok("fine")
		}, recovery.WithFallbacks("backup"))
		f.turn("m")
		before := len(f.sends)
		sent, stop := f.turn("m")
		Expect([]any{sent, stop}).To(Equal([]any{1, recovery.Stop("")}))
		Expect(f.sends).To(HaveLen(before + 1))
		fb := f.of(recovery.EventFallback)
		Expect(fb[len(fb)-1].Reason).To(Equal("circuit breaker open"))
	})

	It("is reset by any answer that is not an overload", func() {
		n := 0
		f := newFleet(s, func(int, time.Time, recovery.Request) answer {
			n++
			if n%3 == 0 {
				return ok("fine")
			}
			return overloaded
		})
		for range 4 {
			_, stop := f.turn("m")
			Expect(stop).To(BeEmpty())
		}
		Expect(f.of(recovery.EventCircuit)).To(BeEmpty())
	})
})

var _ = Describe("The adaptive limiter", func() {
	It("makes a request wait, on the clock, for a slot another turn holds", func() {
		s := classifyOnly()
		s.AdaptiveLimiter = recovery.AdaptiveLimiter{Enabled: true, InitialLimit: 1, MaxLimit: 1}
		clk := clock.NewVirtual()
		release := make(chan struct{})
		var mu sync.Mutex
		var order []string
		p := recovery.ProviderFunc(func(_ context.Context, r recovery.Request) (*recovery.Response, error) {
			mu.Lock()
			order = append(order, r.System[:1]+"-send")
			mu.Unlock()
			if strings.HasPrefix(r.System, "A") {
				within.Recv(GinkgoT(), release, "the test to release A")
			}
			mu.Lock()
			order = append(order, r.System[:1]+"-done")
			mu.Unlock()
			return ok("fine").resp, nil
		})
		holds := make(chan recovery.Event, 1000)
		e := recovery.New(p, s, recovery.WithClock(clk), recovery.WithObserver(func(ev recovery.Event) {
			if ev.Type == recovery.EventHold {
				select {
				case holds <- ev:
				default:
				}
			}
		}))
		a, b := turnOf("m", 100, 1, 10), turnOf("m", 100, 1, 10)
		a.System, b.System = "A", "B"
		done := make(chan struct{}, 2)
		go func() { _, _ = e.Do(context.Background(), a); done <- struct{}{} }()
		Eventually(func() int { mu.Lock(); defer mu.Unlock(); return len(order) }).Should(Equal(1))
		go func() { _, _ = e.Do(context.Background(), b); done <- struct{}{} }()
		ev := within.Recv(GinkgoT(), holds, "B's hold") // B is waiting for the slot
		Expect(ev.Reason).To(Equal("adaptive limiter: 1 in flight, limit 1"))
		Expect(ev.Wait).To(Equal(recovery.SlotPoll))
		close(release)
		within.Recv(GinkgoT(), done, "turn A")
		within.Recv(GinkgoT(), done, "turn B")
		Expect(order).To(Equal([]string{"A-send", "A-done", "B-send", "B-done"}))
	})

	It("cuts the limit on a 429 and reports it", func() {
		s := classifyOnly()
		s.AdaptiveLimiter = recovery.AdaptiveLimiter{Enabled: true, InitialLimit: 8, BackoffRatio: 0.5}
		script := thenOK(1, status(429, "rate_limit_error", "slow down", "retry-after", "1"))
		f := newFleet(s, func(n int, _ time.Time, r recovery.Request) answer { return script(n, r) })
		f.turn("m")
		limits := f.of(recovery.EventLimit)
		Expect(limits).NotTo(BeEmpty())
		Expect(limits[0].Limit).To(Equal(4))
		Expect(limits[0].Reason).To(Equal("m: in-flight limit cut from 8 to 4 on rate_limit"))
	})
})

// budgetFleet is a fleet under s whose model answers until *failing is
// set, then answers overloaded.
func budgetFleet(s recovery.Strategy) (*fleet, *bool) {
	failing := new(bool)
	return newFleet(s, func(int, time.Time, recovery.Request) answer {
		if *failing {
			return overloaded
		}
		return ok("fine")
	}), failing
}
