package recovery

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	step         int            // attempts in the current step
	overloads    int            // consecutive overloads
	current      time.Duration  // the running backoff delay (Backoff.Running), 0 before the first
	pendingWait  time.Duration  // waited since the last attempt
	windows      map[string]int // context window learnt per model from overflows
	overflowSeen bool
	refreshed    bool      // the credential refresh of this turn was used
	last         Failure   // the last attempt's classification
	lastResp     *Response // the last answer, for a truncated one handed back
	// escalatedFrom is max_tokens before an escalation made within the
	// step (Escalation.WithinStep), until the escalated call is answered.
	escalatedFrom int
	rounds        int // new rounds started (Strategy.Rounds)
}

func (t *turn) run(ctx context.Context) (*Result, error) {
	for {
		if err := ctx.Err(); err != nil {
			return t.cancelled(err)
		}
		if t.s.Classify {
			if n := t.s.TurnAttempts; n > 0 && t.res.Attempts >= n {
				if t.last.Kind == KindTruncated && t.lastResp != nil {
					return t.done(t.lastResp)
				}
				return t.stop(t.last, StopAttempts, fmt.Sprintf("the turn's %d attempts are used up", n))
			}
			if t.s.Preflight {
				t.preflightOutput()
			}
			if f, doomed := t.doomed(); doomed {
				next, out, err := t.recoverOverflow(ctx, f)
				if !next {
					return out, err
				}
				continue
			}
		}
		g, send, next, out, err := t.admit(ctx)
		if !send {
			if next {
				continue
			}
			return out, err
		}
		resp, f := t.send(ctx, EventAttempt)
		t.settle(g, f)
		if err := ctx.Err(); err != nil {
			return t.cancelled(err)
		}
		t.last, t.lastResp = f, resp
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
		if next, out, err := t.decide(ctx, resp, f); !next {
			return out, err
		}
	}
}

// decide acts on a classified attempt, in the order doc.go gives. next
// reports whether to send again.
func (t *turn) decide(ctx context.Context, resp *Response, f Failure) (next bool, res *Result, err error) {
	stop := func(s Stop, reason string) (bool, *Result, error) {
		res, err := t.stop(f, s, reason)
		return false, res, err
	}
	if t.escalatedFrom > 0 {
		if f.Kind != KindOK && f.Kind != KindTruncated {
			t.req.MaxTokens = t.escalatedFrom // s11: back to the original budget
		}
		t.escalatedFrom = 0
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
	case KindCancelled:
		return stop(StopCancelled, "the attempt was cancelled")
	case KindOverloaded:
		if t.req.Background && t.s.ShedBackground {
			return stop(StopShed, "background request dropped on an overload")
		}
	case KindAuth:
		if t.s.Auth == AuthRefresh && t.e.refresh != nil {
			if t.refreshed {
				return stop(StopAuth, "credentials rejected again after a refresh")
			}
			if err := t.refreshAuth(ctx); err != nil {
				f.Err = errors.Join(f.Err, err)
				return stop(StopAuth, "credential refresh failed")
			}
			return true, nil, nil
		}
	}
	if f.MidStream && t.s.GiveUpMidStream && f.Kind != KindCancelled {
		if next, err := t.nextRound(ctx, f); next || err != nil {
			return next, &t.res, err
		}
		return stop(StopNotRetryable, "the stream failed after it began")
	}
	if t.s.ClampMaxTokens && f.Kind == KindInvalidRequest && f.OutputLimit > 0 && t.req.MaxTokens > f.OutputLimit {
		return t.clamp(f)
	}
	if slices.Contains(t.s.Fallback.On, f.Kind) {
		if t.fallback(string(f.Kind)) {
			return true, nil, nil
		}
		return stop(StopNoFallback, fmt.Sprintf("%s and no fallback model left", f.Kind))
	}
	if f.Kind == KindContextOverflow || t.tooLargeAsOverflow(f) {
		return t.recoverOverflow(ctx, f)
	}
	if f.Kind == KindOverloaded {
		t.overloads++
		if t.s.Fallback.After > 0 && t.overloads >= t.s.Fallback.After && t.fallback("consecutive overloads") {
			return true, nil, nil
		}
	}

	retryable := t.s.retries(f.Kind, f.StatusCode) || (f.Kind == KindAuth && t.s.Auth == AuthWithinAttempts)
	if f.ShouldRetry != nil && t.s.ShouldRetry != ShouldRetryIgnore {
		switch {
		case *f.ShouldRetry && (t.s.ShouldRetryPermanent || !permanentKind(f.Kind)):
			retryable = true
		case !*f.ShouldRetry && !(t.s.ShouldRetry == ShouldRetryHonorExceptOverloaded && f.Kind == KindOverloaded):
			return stop(StopServerSaidNo, "server said x-should-retry: false")
		}
	}
	if !retryable {
		if next, err := t.nextRound(ctx, f); next || err != nil {
			return next, &t.res, err
		}
		if f.Kind == KindAuth {
			return stop(StopAuth, "credentials rejected and no refresh")
		}
		return stop(StopNotRetryable, "not retryable")
	}
	if next, stopped, res, err := t.breakerStops(f); next || stopped {
		return next, res, err
	}
	if err := t.retry(ctx, f); err != nil {
		return false, &t.res, err
	}
	if f.Kind == KindAuth && t.s.Auth == AuthWithinAttempts && t.e.refresh != nil {
		if err := t.e.refresh(ctx); err != nil {
			f.Err = errors.Join(f.Err, fmt.Errorf("refresh credentials: %w", err))
			return stop(StopAuth, "credential refresh failed")
		}
		t.e.observe(Event{Type: EventAuthRefresh, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Reason: "401: credentials refreshed before the resend"})
	}
	return true, nil, nil
}

// permanentKind reports whether a failure is one that no resend of the
// same request can fix: its content was rejected (overflow, invalid, too
// large, refused), or the account or model was (credentials, permission,
// quota, a missing model). Under classify such a failure stops whatever
// x-should-retry says, unless the strategy sets ShouldRetryPermanent.
func permanentKind(k Kind) bool {
	switch k {
	case KindContextOverflow, KindInvalidRequest, KindRequestTooLarge, KindRefusal,
		KindAuth, KindPermission, KindQuotaExhausted, KindNotFound:
		return true
	}
	return false
}

// send makes one request of the given purpose (EventAttempt or EventRepair)
// and classifies the result.
func (t *turn) send(ctx context.Context, typ EventType) (*Response, Failure) {
	req := t.req
	req.Cache = t.s.PromptCache
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
	last := t.step >= t.s.Attempts
	if last && !t.s.SleepAfterFinal {
		_, err := t.stop(f, StopAttempts, "attempts exhausted")
		return err
	}
	if !last {
		if _, stopped, _, err := t.breakerStops(f); stopped {
			return err
		}
	}
	if !last && t.budgetStops() {
		_, err := t.stop(f, StopRetryBudget, t.budgetReason())
		return err
	}
	if err := t.sleep(ctx, t.s.Backoff.Delay(t.step-1, t.e.rand)); err != nil {
		return err
	}
	if last {
		_, err := t.stop(f, StopAttempts, "attempts exhausted")
		return err
	}
	return nil
}

// retry waits as a classifying strategy does, then lets the loop resend.
// It never sleeps after the final attempt of a step: past it the turn
// moves to the next model (Fallback.OnExhausted) or stops.
func (t *turn) retry(ctx context.Context, f Failure) error {
	if n := t.s.TurnAttempts; n > 0 && t.res.Attempts >= n {
		_, err := t.stop(f, StopAttempts, fmt.Sprintf("the turn's %d attempts are used up", n))
		return err
	}
	persistent := t.s.persistentKind(f.Kind)
	if !persistent && t.step >= t.s.Attempts {
		if t.s.Fallback.OnExhausted && t.fallback("attempts exhausted") {
			return nil
		}
		if next, err := t.nextRound(ctx, f); next || err != nil {
			return err
		}
		if t.s.SleepAfterFinal {
			if err := t.sleep(ctx, t.s.Backoff.Delay(t.step-1, t.e.rand)); err != nil {
				return err
			}
		}
		_, err := t.stop(f, StopAttempts, fmt.Sprintf("%d attempts exhausted", t.step))
		return err
	}
	if t.budgetStops() {
		_, err := t.stop(f, StopRetryBudget, t.budgetReason())
		return err
	}
	b := t.s.Backoff
	if persistent {
		b.Cap = t.s.PersistentCap
	}
	sw, asked := t.s.serverWait(f, t.e.clock.Now())
	switch c := t.s.RetryAfter.Cap; {
	case asked && c > 0 && sw > c && (t.s.RetryAfter.AboveCap == AboveCapGiveUp || t.s.RetryAfter.AboveCap == AboveCapFallback):
		reason := fmt.Sprintf("server asked to wait %v, above the %v cap", sw, c)
		if t.s.RetryAfter.AboveCap == AboveCapFallback && t.fallback(reason) {
			return nil
		}
		_, err := t.stop(f, StopRetryAfterCap, reason)
		return err
	case asked && c > 0 && sw >= c && t.s.RetryAfter.AboveCap == AboveCapBackoff:
		// The Vercel AI SDK: a wait of a minute or more is not taken,
		// unless the backoff would wait longer still.
		if plain := (Backoff{Base: b.Base, Factor: b.Factor, Cap: b.Cap}).Delay(t.step-1, nil); plain < sw {
			asked = false
		}
	case asked && c > 0 && sw > c:
		sw = c
	}
	wait := t.backoff(b, sw, asked)
	if b := t.s.WaitBudget; b > 0 && t.res.Waited+wait > b {
		_, err := t.stop(f, StopWaitBudget, fmt.Sprintf("waiting %v more would pass the %v wait budget", wait, b))
		return err
	}
	return t.sleep(ctx, wait)
}

// backoff is the wait before the next attempt: the server's wait sw when
// it asked for one (asked), plus RetryAfter.Jitter, else the backoff delay
// of the step's retry; with Backoff.Running, the running delay (raised to sw
// first) instead, which then grows by the factor up to the cap.
func (t *turn) backoff(b Backoff, sw time.Duration, asked bool) time.Duration {
	jitter := func(d time.Duration) time.Duration {
		if r := t.s.RetryAfter.Jitter; r > 0 && t.e.rand != nil {
			d += time.Duration(float64(d) * r * t.e.rand.Float64())
		}
		return d
	}
	if !t.s.Backoff.Running {
		if asked {
			return jitter(sw)
		}
		return b.Delay(t.step-1, t.e.rand)
	}
	if t.current <= 0 {
		t.current = Backoff{Base: b.Base}.Delay(0, nil)
	}
	var wait time.Duration
	if asked {
		t.current = max(t.current, sw)
		wait = jitter(t.current)
	} else {
		wait = Backoff{Base: t.current, Factor: 1, Jitter: b.Jitter, JitterRatio: b.JitterRatio}.Delay(0, t.e.rand)
	}
	t.current = Backoff{Base: t.current, Factor: b.Factor, Cap: b.Cap}.Delay(1, nil)
	if b.Cap > 0 {
		t.current = min(t.current, b.Cap)
	}
	return wait
}

// nextRound starts a new round (Strategy.Rounds) after a step that ended
// on f, when the strategy's rounds resend f's kind and some are left: it
// waits the round's backoff and resets the step's count. next reports
// whether the loop should send again; err is the turn's end when the wait
// could not be made (cancelled, or past the wait budget).
func (t *turn) nextRound(ctx context.Context, f Failure) (next bool, err error) {
	if !t.s.Classify || !t.s.roundRetries(f.Kind) || t.rounds >= t.s.Rounds.Max {
		return false, nil
	}
	if n := t.s.TurnAttempts; n > 0 && t.res.Attempts >= n {
		return false, nil
	}
	if t.budgetStops() {
		_, err := t.stop(f, StopRetryBudget, t.budgetReason())
		return false, err
	}
	wait := t.s.Rounds.Backoff.Delay(t.rounds, t.e.rand)
	if b := t.s.WaitBudget; b > 0 && t.res.Waited+wait > b {
		_, err := t.stop(f, StopWaitBudget, fmt.Sprintf("waiting %v more would pass the %v wait budget", wait, b))
		return false, err
	}
	t.rounds++
	if err := t.sleep(ctx, wait); err != nil {
		return false, err
	}
	t.newStep()
	return true, nil
}

// clamp lowers max_tokens to the output limit a 400 stated and resends at
// once, as one more attempt of the step (Strategy.ClampMaxTokens).
func (t *turn) clamp(f Failure) (bool, *Result, error) {
	if t.step >= t.s.Attempts {
		res, err := t.stop(f, StopAttempts, fmt.Sprintf("%d attempts exhausted before clamping max_tokens", t.step))
		return false, res, err
	}
	from := t.req.MaxTokens
	t.req.MaxTokens = f.OutputLimit
	t.res.Adjustments++
	t.e.observe(Event{Type: EventAdjust, Time: t.e.clock.Now(), Attempt: t.res.Attempts, FromTokens: from, ToTokens: f.OutputLimit,
		Reason: "max_tokens above the model's maximum"})
	return true, nil, nil
}

// sleep waits on the engine's clock and records the wait. With a heartbeat
// a long wait goes in chunks, an EventHeartbeat before each. A cancelled
// context ends the turn without waiting further.
func (t *turn) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		_, gerr := t.cancelled(err)
		return gerr
	}
	t.e.observe(Event{Type: EventWait, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Wait: d})
	hb := t.s.Heartbeat
	for remaining := d; remaining > 0; {
		chunk := remaining
		if hb > 0 && d > hb {
			chunk = min(remaining, hb)
			t.e.observe(Event{Type: EventHeartbeat, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Wait: remaining})
		}
		if err := t.e.clock.Sleep(ctx, chunk); err != nil {
			_, gerr := t.cancelled(err)
			return gerr
		}
		t.res.Waited += chunk
		t.pendingWait += chunk
		remaining -= chunk
	}
	return nil
}

// refreshAuth calls the refresh hook once and starts a new step.
func (t *turn) refreshAuth(ctx context.Context) error {
	t.refreshed = true
	if err := t.e.refresh(ctx); err != nil {
		return fmt.Errorf("refresh credentials: %w", err)
	}
	t.newStep()
	t.e.observe(Event{Type: EventAuthRefresh, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Reason: "401: credentials refreshed"})
	return nil
}

// newStep starts a fresh count of attempts after the request changed.
func (t *turn) newStep() { t.step = 0; t.overloads = 0; t.current = 0 }

// fallback moves the turn to the next model, if one is left.
func (t *turn) fallback(reason string) bool {
	if t.model+1 >= len(t.models) {
		return false
	}
	from := t.models[t.model]
	t.model++
	t.req.Model = t.models[t.model]
	t.res.Fallbacks++
	t.newStep()
	t.e.observe(Event{Type: EventFallback, Time: t.e.clock.Now(), Attempt: t.res.Attempts, From: from, To: t.req.Model, Reason: reason})
	// An escalation raised max_tokens within the old model's output limit;
	// the new model may have a smaller one.
	if lim := t.limits().MaxOutput; lim > 0 && t.req.MaxTokens > lim && t.res.Escalations > 0 && !t.s.Escalation.Unclamped {
		t.req.MaxTokens = lim
	}
	t.fit()
	return true
}

func (t *turn) done(resp *Response) (*Result, error) {
	t.res.Response = resp
	t.e.observe(Event{Type: EventDone, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Response: resp})
	return &t.res, nil
}

func (t *turn) cancelled(err error) (*Result, error) {
	return t.stop(Failure{Kind: KindCancelled, Err: err}, StopCancelled, "cancelled")
}

// stop ends the turn without an answer: a *GiveUpError that wraps f's
// error and says why.
func (t *turn) stop(f Failure, s Stop, reason string) (*Result, error) {
	err := f.Err
	if err == nil {
		err = errors.New(string(f.Kind))
	}
	g := &GiveUpError{
		Kind: f.Kind, Stop: s, Attempts: t.res.Attempts, Waited: t.res.Waited,
		Budget: t.s.WaitBudget, Reason: reason, Err: err,
	}
	t.e.observe(Event{Type: EventGiveUp, Time: t.e.clock.Now(), Attempt: t.res.Attempts, Failure: f, Reason: reason, Err: g})
	return &t.res, g
}
