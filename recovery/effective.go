package recovery

import "time"

// Effective returns s with every default resolved once: each zero that a
// field's doc says "means" something is that thing, and each enum left
// empty is its default mode, so that what is printed (`faultbench
// strategies`, docs/strategies.md) is what the engine runs. The engine
// runs the effective strategy; Effective of an effective strategy is
// itself. A value that says "none" or "off" (a cap of 0, an escalation
// factor of 0 or 1, a wait budget of 0 outside persistent mode) stays as
// it is.
func (s Strategy) Effective() Strategy {
	s = s.Clone()
	s.Attempts = orDefault(s.Attempts, 5)
	if s.TurnAttempts <= 0 && s.Persistent {
		s.TurnAttempts = 1000
	}
	s.Backoff = s.Backoff.effective()
	if s.Retry == nil {
		s.Retry = TransientKinds()
	}
	s.Rounds = s.Rounds.effective(s.Retry)
	if s.ShouldRetry == "" {
		s.ShouldRetry = ShouldRetryHonor
	}
	s.RetryAfter = s.RetryAfter.effective()
	if s.WaitBudget <= 0 && s.Persistent && s.Classify {
		s.WaitBudget = 6 * time.Hour
	}
	if s.PersistentCap <= 0 {
		s.PersistentCap = 5 * time.Minute
	}
	if s.Auth == "" {
		s.Auth = AuthStop
	}
	s.Escalation.Max = orDefault(s.Escalation.Max, 3)
	s.Adjust = s.Adjust.effective()
	s.Compaction = s.Compaction.effective()
	s.LoopGuard.Config = s.LoopGuard.Config.Effective()
	s.StepCap = orDefault(s.StepCap, DefaultStepCap)
	s.RateLimiter.MaxWait = s.RateLimiter.maxWait()
	s.RetryBudget = s.RetryBudget.Effective()
	s.CircuitBreaker = s.CircuitBreaker.Effective()
	s.AdaptiveLimiter = s.AdaptiveLimiter.Effective()
	s.PromptCache.TTL = s.PromptCache.Lifetime()
	return s
}

// effective resolves a backoff's defaults: Delay and Bounds return the
// same for it as for b.
func (b Backoff) effective() Backoff {
	if b.Base <= 0 {
		b.Base = time.Second
	}
	if b.Factor <= 0 {
		b.Factor = 2
	}
	if b.Jitter == "" {
		b.Jitter = JitterNone
	}
	if b.JitterRatio <= 0 {
		b.JitterRatio = 0.25
	}
	return b
}

// effective resolves the rounds' defaults; retry is the strategy's
// effective Retry list.
func (r Rounds) effective(retry []Kind) Rounds {
	if r.Retry == nil {
		r.Retry = retry
	}
	r.Backoff = r.Backoff.effective()
	return r
}

func (w ServerWait) effective() ServerWait {
	if w.Honor == "" {
		w.Honor = RetryAfterIgnore
	}
	if w.AboveCap == "" {
		w.AboveCap = AboveCapWait
	}
	return w
}

func (a Adjust) effective() Adjust {
	a.Buffer = orDefault(a.Buffer, 1000)
	a.Floor = orDefault(a.Floor, 3000)
	return a
}

func (c Compaction) effective() Compaction {
	c.KeepRecent = orDefault(c.KeepRecent, 6)
	c.Max = orDefault(c.Max, 3)
	c.SummaryMaxTokens = orDefault(c.SummaryMaxTokens, 4096)
	if c.LearnedWindowRatio <= 0 || c.LearnedWindowRatio > 1 {
		c.LearnedWindowRatio = 0.85
	}
	return c
}
