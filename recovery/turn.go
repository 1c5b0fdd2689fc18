package recovery

import (
	"context"
	"errors"
	"time"
)

// turn is the state of one call to Engine.Do. The strategy stays immutable;
// everything that counts lives here.
type turn struct {
	e      *Engine
	s      Strategy
	req    Request
	models []string // the turn's model, then its fallbacks
	model  int      // index into models

	res          Result
	step         int           // attempts in the current step
	overloads    int           // consecutive overloads
	pendingWait  time.Duration // waited since the last attempt
	window       int           // context window learnt for the current model, 0 unknown
	overflowSeen bool
}

func (t *turn) run(ctx context.Context) (*Result, error) {
	for {
		if err := ctx.Err(); err != nil {
			return t.giveUp(Failure{Kind: KindCancelled, Err: err}, "cancelled")
		}
		if t.s.Classify {
			if f, doomed := t.doomed(); doomed {
				next, out, err := t.recoverOverflow(ctx, f)
				if !next {
					return out, err
				}
				continue
			}
		}
		resp, f := t.send(ctx, EventAttempt)
		if ctx.Err() != nil {
			return t.giveUp(Failure{Kind: KindCancelled, Err: ctx.Err()}, "cancelled")
		}
		if !t.s.Classify {
			if f.Err == nil {
				return t.done(resp)
			}
			if err := t.retryBlind(ctx, f); err != nil {
				return &t.res, err
			}
			continue
		}
		if f.Kind != KindOverloaded {
			t.overloads = 0
		}
		next, out, err := t.decide(ctx, resp, f)
		if !next {
			return out, err
		}
	}
}

// decide acts on a classified attempt. next reports whether to send again.
func (t *turn) decide(ctx context.Context, resp *Response, f Failure) (next bool, res *Result, err error) {
	if f.ShouldRetry != nil && !*f.ShouldRetry && f.Kind != KindOK && f.Kind != KindTruncated {
		res, err = t.giveUp(f, "server said x-should-retry: false")
		return false, res, err
	}
	switch f.Kind {
	case KindOK:
		res, err = t.done(resp)
		return false, res, err
	case KindTruncated:
		if t.escalate(resp) {
			return true, nil, nil
		}
		res, err = t.done(resp)
		return false, res, err
	case KindContextOverflow:
		return t.recoverOverflow(ctx, f)
	case KindNotFound:
		if t.fallback("model not found") {
			return true, nil, nil
		}
		res, err = t.giveUp(f, "model not found and no fallback left")
		return false, res, err
	case KindOverloaded:
		t.overloads++
		if t.s.FallbackAfter > 0 && t.overloads >= t.s.FallbackAfter && t.fallback("consecutive overloads") {
			return true, nil, nil
		}
	}
	retryable := f.Kind.Transient() || (f.ShouldRetry != nil && *f.ShouldRetry && !contentKind(f.Kind))
	if !retryable {
		res, err = t.giveUp(f, "not retryable")
		return false, res, err
	}
	if err := t.retry(ctx, f); err != nil {
		return false, &t.res, err
	}
	return true, nil, nil
}

// contentKind reports whether a failure was about the request's content,
// which no resend of the same request can fix.
func contentKind(k Kind) bool {
	switch k {
	case KindContextOverflow, KindInvalidRequest, KindRequestTooLarge, KindRefusal:
		return true
	}
	return false
}

// send makes one request of the given purpose (EventAttempt or EventRepair)
// and classifies the result.
func (t *turn) send(ctx context.Context, typ EventType) (*Response, Failure) {
	req := t.req
	if typ == EventAttempt {
		t.res.Attempts++
		t.step++
		t.res.Request = req.Clone()
	}
	resp, err := t.e.provider.Send(ctx, req)
	f := t.e.classify(resp, err)
	t.e.observe(Event{
		Type: typ, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Request: &req,
		Response: resp, Failure: f, WaitBefore: t.pendingWait, Err: err,
	})
	t.pendingWait = 0
	return resp, f
}

// retryBlind is the naive loop: the same request again after base·2^i,
// sleeping even after the last attempt when the strategy says so.
func (t *turn) retryBlind(ctx context.Context, f Failure) error {
	last := t.step >= t.s.attempts()
	if last && !t.s.SleepAfterFinal {
		_, err := t.giveUp(f, "attempts exhausted")
		return err
	}
	if err := t.sleep(ctx, t.s.Backoff.Delay(t.step-1, t.e.rand)); err != nil {
		return err
	}
	if last {
		_, err := t.giveUp(f, "attempts exhausted")
		return err
	}
	return nil
}

// retry waits as a classifying strategy does, then lets the loop resend.
// It never sleeps after the final attempt of a step.
func (t *turn) retry(ctx context.Context, f Failure) error {
	if t.step >= t.s.attempts() {
		_, err := t.giveUp(f, "attempts exhausted")
		return err
	}
	wait := t.s.Backoff.Delay(t.step-1, t.e.rand)
	if t.s.HonorRetryAfter {
		if ra, ok := RetryAfter(f.Header, t.e.clock.Now()); ok {
			wait = ra
			if c := t.s.RetryAfterCap; c > 0 && wait > c {
				if t.s.GiveUpAboveCap {
					_, err := t.giveUp(f, "server asked to wait longer than the cap")
					return err
				}
				wait = c
			}
		}
	}
	if b := t.s.WaitBudget; b > 0 && t.res.Waited+wait > b {
		_, err := t.giveUp(f, "wait budget exhausted")
		return err
	}
	return t.sleep(ctx, wait)
}

// sleep waits on the engine's clock and records the wait. A cancelled
// context ends the turn without waiting.
func (t *turn) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		_, gerr := t.giveUp(Failure{Kind: KindCancelled, Err: err}, "cancelled")
		return gerr
	}
	t.e.observe(Event{Type: EventWait, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Wait: d})
	if err := t.e.clock.Sleep(ctx, d); err != nil {
		_, gerr := t.giveUp(Failure{Kind: KindCancelled, Err: err}, "cancelled")
		return gerr
	}
	t.res.Waited += d
	t.pendingWait += d
	return nil
}

// newStep starts a fresh count of attempts after the request changed.
func (t *turn) newStep() { t.step = 0; t.overloads = 0 }

// fallback moves the turn to the next model, if one is left.
func (t *turn) fallback(reason string) bool {
	if t.model+1 >= len(t.models) {
		return false
	}
	from := t.models[t.model]
	t.model++
	t.req.Model = t.models[t.model]
	t.window = 0
	t.res.Fallbacks++
	t.newStep()
	t.e.observe(Event{Type: EventFallback, Time: t.e.clock.Now(), Attempt: t.res.Attempts, From: from, To: t.req.Model, Reason: reason})
	t.fit()
	return true
}

func (t *turn) done(resp *Response) (*Result, error) {
	t.res.Response = resp
	t.e.observe(Event{Type: EventDone, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Response: resp})
	return &t.res, nil
}

func (t *turn) giveUp(f Failure, reason string) (*Result, error) {
	err := f.Err
	if err == nil {
		err = errors.New(string(f.Kind))
	}
	g := &GiveUpError{Kind: f.Kind, Attempts: t.res.Attempts, Reason: reason, Err: err}
	t.e.observe(Event{Type: EventGiveUp, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Failure: f, Reason: reason, Err: g})
	return &t.res, g
}
