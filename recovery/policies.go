package recovery

import (
	"context"
	"fmt"
	"time"

	"github.com/faultbench/faultbench/recovery/adaptivelimiter"
	"github.com/faultbench/faultbench/recovery/circuitbreaker"
	"github.com/faultbench/faultbench/recovery/retrybudget"
)

// policies is the state the cross-turn policies keep for an Engine: one
// value per Engine, shared by every turn it runs, safe for concurrent use.
type policies struct {
	limiter  rateLimiter
	budget   retrybudget.Budget
	breakers circuitbreaker.Breakers
	slots    adaptivelimiter.Limiters
}

// grant is what admit took for one attempt, to give back when it is
// answered.
type grant struct {
	probe bool
	slot  bool
	model string    // the model the attempt went to
	sent  time.Time // when its slot was taken
}

// admit runs the cross-turn policies before an attempt, in this order:
// the circuit breaker (fail fast, or fall back), the retry budget (fail
// fast), the adaptive limiter (wait for a slot), the rate limiter (hold
// until the buckets can pay). When it does not let the attempt go, next
// says whether the turn goes on (it moved to a fallback model) and res,
// err are the turn's end otherwise.
func (t *turn) admit(ctx context.Context) (g grant, send, next bool, res *Result, err error) {
	s, p := t.s, &t.e.pol
	if s.CircuitBreaker.Enabled {
		ok, probe, tr := p.breakers.Allow(s.CircuitBreaker, t.req.Model, t.e.clock.Now())
		t.breakerEvent(tr)
		if !ok {
			f := Failure{Kind: KindOverloaded, Err: fmt.Errorf("%w for %s", ErrCircuitOpen, t.req.Model)}
			if t.fallback("circuit breaker open") {
				return g, false, true, nil, nil
			}
			res, err = t.stop(f, StopCircuitOpen, fmt.Sprintf("circuit breaker open for %s and no fallback model left", t.req.Model))
			return g, false, false, res, err
		}
		g.probe = probe
	}
	retry := t.res.Attempts > 0
	if s.RetryBudget.Enabled && !p.budget.Take(s.RetryBudget, retry, t.e.clock.Now()) {
		p.breakers.Abandon(t.req.Model, g.probe)
		res, err = t.stop(t.last, StopRetryBudget, t.budgetReason())
		return g, false, false, res, err
	}
	giveBack := func() {
		p.breakers.Abandon(t.req.Model, g.probe)
		if s.RetryBudget.Enabled {
			p.budget.Refund(retry)
		}
	}
	if s.AdaptiveLimiter.Enabled {
		if err := t.waitSlot(ctx); err != nil {
			giveBack()
			return g, false, false, &t.res, err
		}
		g.slot, g.model, g.sent = true, t.req.Model, t.e.clock.Now()
	}
	if s.RateLimiter.Enabled {
		if err := t.holdForBuckets(ctx); err != nil {
			giveBack()
			if g.slot {
				p.slots.Release(s.AdaptiveLimiter, g.model, adaptivelimiter.Cancelled, g.sent, t.e.clock.Now())
			}
			return g, false, false, &t.res, err
		}
	}
	return g, true, false, nil, nil
}

// settle gives back what admit took, and tells the policies the answer.
func (t *turn) settle(g grant, f Failure) {
	s, p, now := t.s, &t.e.pol, t.e.clock.Now()
	if s.RateLimiter.Enabled {
		p.limiter.observe(t.req.Model, f.Header, now)
	}
	if s.CircuitBreaker.Enabled {
		t.breakerEvent(p.breakers.Record(s.CircuitBreaker, t.req.Model, g.probe, breakerOutcome(f.Kind), now))
	}
	if g.slot {
		if from, to := p.slots.Release(s.AdaptiveLimiter, g.model, slotOutcome(f.Kind), g.sent, now); from != to {
			verb := "grown"
			if to < from {
				verb = "cut"
			}
			t.e.observe(Event{Type: EventLimit, Time: now, Attempt: t.res.Attempts, Limit: to,
				Reason: fmt.Sprintf("%s: in-flight limit %s from %d to %d on %s", g.model, verb, from, to, f.Kind)})
		}
	}
}

// breakerStops is the circuit breaker's answer to a failure that would be
// retried on a model whose breaker is open: the turn moves to a fallback
// model at once (next), or stops without waiting (stopped, with res and
// err). Neither: the retry goes on.
func (t *turn) breakerStops(f Failure) (next, stopped bool, res *Result, err error) {
	if !t.s.CircuitBreaker.Enabled || !t.e.pol.breakers.Refuses(t.s.CircuitBreaker, t.req.Model, t.e.clock.Now()) {
		return false, false, nil, nil
	}
	if t.fallback("circuit breaker open") {
		return true, false, nil, nil
	}
	res, err = t.stop(f, StopCircuitOpen, fmt.Sprintf("circuit breaker open for %s and no fallback model left", t.req.Model))
	return false, true, res, err
}

// budgetStops reports whether the retry budget has no room for the retry
// a failure asks for; a turn then gives up without waiting.
func (t *turn) budgetStops() bool {
	return t.s.RetryBudget.Enabled && !t.e.pol.budget.Allows(t.s.RetryBudget, t.e.clock.Now())
}

func (t *turn) budgetReason() string {
	b := t.s.RetryBudget
	return fmt.Sprintf("retry budget spent: %g × requests + %d retries per %v", b.Ratio, b.MinRetries, b.Window)
}

func (t *turn) breakerEvent(tr *circuitbreaker.Transition) {
	if tr == nil {
		return
	}
	t.e.observe(Event{Type: EventCircuit, Time: t.e.clock.Now(), Attempt: t.res.Attempts,
		From: string(tr.From), To: string(tr.To), Reason: t.req.Model + ": " + tr.Reason})
}

// waitSlot waits on the clock until the adaptive limiter has a slot:
// woken when one is freed on a WakeClock, looking every SlotPoll on
// another clock.
func (t *turn) waitSlot(ctx context.Context) error {
	cfg, model, slots := t.s.AdaptiveLimiter, t.req.Model, &t.e.pol.slots
	wc, wakeable := t.e.clock.(WakeClock)
	for {
		ok, inflight, limit := slots.Acquire(cfg, model)
		if ok {
			return nil
		}
		reason := fmt.Sprintf("adaptive limiter: %d in flight, limit %d", inflight, limit)
		if !wakeable {
			if err := t.hold(ctx, SlotPoll, reason); err != nil {
				return err
			}
			continue
		}
		if err := t.holdWoken(ctx, wc, reason); err != nil {
			slots.Kick(cfg, model) // a wake-up it got goes to the next in line
			return err
		}
	}
}

// holdForBuckets waits on the clock until the rate limiter's buckets can
// pay for the request, at most RateLimiter.MaxWait in all.
func (t *turn) holdForBuckets(ctx context.Context) error {
	input := t.e.count(t.req)
	budget := t.s.RateLimiter.maxWait()
	var held time.Duration
	for {
		d, which := t.e.pol.limiter.reserve(t.req, input, t.e.clock.Now())
		if d == 0 {
			return nil
		}
		if held >= budget {
			t.e.pol.limiter.force(t.req, input, t.e.clock.Now())
			return nil
		}
		d = min(d, budget-held)
		if err := t.hold(ctx, d, "rate limiter: "+which); err != nil {
			return err
		}
		held += d
	}
}

// hold is a policy's wait: on the engine's clock, cancellable, reported as
// EventHold as it begins. It is not a retry's wait: it does not count
// against the wait budget nor appear as a wait before the attempt.
func (t *turn) hold(ctx context.Context, d time.Duration, reason string) error {
	if err := ctx.Err(); err != nil {
		_, gerr := t.cancelled(err)
		return gerr
	}
	t.e.observe(Event{Type: EventHold, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Wait: d, Reason: reason})
	if err := t.e.clock.Sleep(ctx, d); err != nil {
		_, gerr := t.cancelled(err)
		return gerr
	}
	return nil
}

// holdWoken is a hold for an adaptive limiter's slot on a WakeClock: it
// ends when a slot is freed, so its EventHold is reported when it ends,
// stamped with its start and the time it lasted.
func (t *turn) holdWoken(ctx context.Context, wc WakeClock, reason string) error {
	if err := ctx.Err(); err != nil {
		_, gerr := t.cancelled(err)
		return gerr
	}
	cfg, model, slots := t.s.AdaptiveLimiter, t.req.Model, &t.e.pol.slots
	start := wc.Now()
	err := wc.SleepWake(ctx, slotWake, func(wake func() bool) { slots.Enlist(cfg, model, wake) })
	t.e.observe(Event{Type: EventHold, Time: start, Attempt: t.res.Attempts, Wait: wc.Now().Sub(start), Reason: reason})
	if err != nil {
		_, gerr := t.cancelled(err)
		return gerr
	}
	return nil
}

// breakerOutcome is what the circuit breaker makes of a failure's kind.
func breakerOutcome(k Kind) circuitbreaker.Outcome {
	switch k {
	case KindCancelled:
		return circuitbreaker.Cancelled
	case KindOverloaded:
		return circuitbreaker.Overloaded
	}
	return circuitbreaker.Answered
}

// slotOutcome is what an answer of kind k tells the adaptive limiter.
func slotOutcome(k Kind) adaptivelimiter.Outcome {
	switch k {
	case KindCancelled:
		return adaptivelimiter.Cancelled
	case KindRateLimit, KindOverloaded:
		return adaptivelimiter.Refused
	}
	return adaptivelimiter.Answered
}

// SlotPoll is how often a request waiting for a slot of the adaptive
// limiter looks again on a Clock that is not a WakeClock: a wait on the
// clock, so that under a virtual clock the other turns run meanwhile.
const SlotPoll = 50 * time.Millisecond

// slotWake is the longest a request waits on a WakeClock for a slot
// before it looks again unwoken: a freed slot wakes it, so this only
// bounds a wait whose wake-up went to a request that then gave up.
const slotWake = time.Minute
