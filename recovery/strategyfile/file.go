package strategyfile

import (
	"time"

	"github.com/faultbench/faultbench/recovery"
)

// doc is a strategy file as written: every field a pointer, so that a
// field left out keeps the base's value.
type doc struct {
	Name            *string      `yaml:"name"`
	Description     *string      `yaml:"description"`
	Base            *string      `yaml:"base"`
	Classify        *bool        `yaml:"classify"`
	Attempts        *int         `yaml:"attempts"`
	TurnAttempts    *int         `yaml:"turn_attempts"`
	Backoff         *backoff     `yaml:"backoff"`
	Rounds          *rounds      `yaml:"rounds"`
	SleepAfterFinal *bool        `yaml:"sleep_after_final"`
	Retry           *[]kind      `yaml:"retry"`
	RetryStatuses   *[]status    `yaml:"retry_statuses"`
	ShouldRetry     *shouldRetry `yaml:"should_retry"`
	RetryAfter      *retryAfter  `yaml:"retry_after"`
	WaitBudget      *duration    `yaml:"wait_budget"`
	Persistent      *bool        `yaml:"persistent"`
	PersistentCap   *duration    `yaml:"persistent_cap"`
	Heartbeat       *duration    `yaml:"heartbeat"`
	Fallback        *fallback    `yaml:"fallback"`
	Auth            *authMode    `yaml:"auth"`
	ShedBackground  *bool        `yaml:"shed_background"`
	Escalation      *escalation  `yaml:"escalation"`
	Adjust          *adjust      `yaml:"adjust"`
	Compaction      *compaction  `yaml:"compaction"`
	Preflight       *bool        `yaml:"preflight"`
	LoopGuard       *loopGuard   `yaml:"loop_guard"`
	StepCap         *int         `yaml:"step_cap"`

	// The cross-turn policies (policies.go).
	RateLimiter     *rateLimiter     `yaml:"rate_limiter"`
	RetryBudget     *retryBudget     `yaml:"retry_budget"`
	CircuitBreaker  *circuitBreaker  `yaml:"circuit_breaker"`
	AdaptiveLimiter *adaptiveLimiter `yaml:"adaptive_limiter"`
	PromptCache     *promptCache     `yaml:"prompt_cache"`

	// Options that reproduce a source where it differs from classify.
	ShouldRetryPermanent *bool `yaml:"should_retry_permanent"` // x-should-retry: true resends permanent failures too
	GiveUpMidStream      *bool `yaml:"give_up_mid_stream"`     // a stream that failed after it began is not resent
	ClampMaxTokens       *bool `yaml:"clamp_max_tokens"`       // a 400 for max_tokens above the model's maximum is resent with the maximum
}

// rounds is the outer retry loop around a step's attempts (Codex's stream
// retries around its HTTP retries).
type rounds struct {
	Max     *int     `yaml:"max"`
	Retry   *[]kind  `yaml:"retry"`
	Backoff *backoff `yaml:"backoff"`
}

// loopGuard is the loop guard of agent turns; a threshold of 0 takes
// loopguard's default.
type loopGuard struct {
	Enabled         *bool `yaml:"enabled"`
	Window          *int  `yaml:"window"`
	RepeatWarn      *int  `yaml:"repeat_warn"`
	RepeatBreak     *int  `yaml:"repeat_break"`
	PingPongWarn    *int  `yaml:"ping_pong_warn"`
	PingPongBreak   *int  `yaml:"ping_pong_break"`
	NoProgressWarn  *int  `yaml:"no_progress_warn"`
	NoProgressBreak *int  `yaml:"no_progress_break"`
}

type backoff struct {
	Base        *duration `yaml:"base"`
	Factor      *float64  `yaml:"factor"`
	Cap         *duration `yaml:"cap"`
	Jitter      *jitter   `yaml:"jitter"`
	JitterRatio *float64  `yaml:"jitter_ratio"`

	Running *bool `yaml:"running"` // a running delay that a server wait raises
}

type retryAfter struct {
	Honor          *honor    `yaml:"honor"`
	RateLimitReset *bool     `yaml:"rate_limit_reset"`
	Cap            *duration `yaml:"cap"`
	AboveCap       *aboveCap `yaml:"above_cap"`

	RetryInfo *bool    `yaml:"retry_info"` // the error body's RetryInfo delay too
	Jitter    *float64 `yaml:"jitter"`     // + 0..ratio of a server wait
}

type fallback struct {
	After       *int    `yaml:"after"`
	On          *[]kind `yaml:"on"`
	OnExhausted *bool   `yaml:"on_exhausted"`
}

type escalation struct {
	Factor  *float64 `yaml:"factor"`
	Max     *int     `yaml:"max"`
	Ceiling *int     `yaml:"ceiling"`

	Unclamped  *bool `yaml:"unclamped"`   // bounded by the ceiling alone
	WithinStep *bool `yaml:"within_step"` // one more attempt of the step; reverts on failure
}

type adjust struct {
	Enabled *bool `yaml:"enabled"`
	Buffer  *int  `yaml:"buffer"`
	Floor   *int  `yaml:"floor"`

	WithinStep *bool `yaml:"within_step"` // an adjustment spends an attempt of the step
}

type compaction struct {
	Enabled            *bool    `yaml:"enabled"`
	KeepRecent         *int     `yaml:"keep_recent"`
	Max                *int     `yaml:"max"`
	SummaryMaxTokens   *int     `yaml:"summary_max_tokens"`
	LearnedWindowRatio *float64 `yaml:"learned_window_ratio"`
	TooLargeAsOverflow *float64 `yaml:"too_large_as_overflow"`

	LearnFromEstimate *bool `yaml:"learn_from_estimate"` // every overflow learns ratio × the counted input
}

// writeBackoff writes b over dst.
func writeBackoff(dst *recovery.Backoff, b *backoff) {
	if b == nil {
		return
	}
	setDuration(&dst.Base, b.Base)
	set(&dst.Factor, b.Factor)
	setDuration(&dst.Cap, b.Cap)
	if b.Jitter != nil {
		dst.Jitter = recovery.Jitter(*b.Jitter)
	}
	set(&dst.JitterRatio, b.JitterRatio)
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

func setDuration(dst *time.Duration, src *duration) {
	if src != nil {
		*dst = time.Duration(*src)
	}
}

func kinds(src *[]kind) []recovery.Kind {
	out := make([]recovery.Kind, 0, len(*src))
	for _, k := range *src {
		out = append(out, recovery.Kind(k))
	}
	return out
}

// problem is a value out of range, at a field path.
type problem struct {
	path string // goccy path: $.backoff.factor
	msg  string
}

// apply writes f over s and returns the problems of range it finds.
func (f *doc) apply(s *recovery.Strategy) []problem {
	var c checker
	c.count("$.attempts", f.Attempts, MaxAttempts)
	c.count("$.turn_attempts", f.TurnAttempts, MaxAttempts)
	c.count("$.step_cap", f.StepCap, MaxSteps)
	c.wait("$.wait_budget", f.WaitBudget)
	c.wait("$.persistent_cap", f.PersistentCap)
	c.heartbeat("$.heartbeat", f.Heartbeat)
	if b := f.Backoff; b != nil {
		c.wait("$.backoff.base", b.Base)
		c.wait("$.backoff.cap", b.Cap)
		c.factor("$.backoff.factor", b.Factor, 1, "for the default 2")
		c.ratio("$.backoff.jitter_ratio", b.JitterRatio)
	}
	if r := f.RetryAfter; r != nil {
		c.wait("$.retry_after.cap", r.Cap)
		c.ratio("$.retry_after.jitter", r.Jitter)
	}
	if r := f.Rounds; r != nil {
		c.count("$.rounds.max", r.Max, MaxAttempts)
		if b := r.Backoff; b != nil {
			c.wait("$.rounds.backoff.base", b.Base)
			c.wait("$.rounds.backoff.cap", b.Cap)
			c.factor("$.rounds.backoff.factor", b.Factor, 1, "for the default 2")
			c.ratio("$.rounds.backoff.jitter_ratio", b.JitterRatio)
		}
	}
	if fb := f.Fallback; fb != nil {
		c.count("$.fallback.after", fb.After, MaxAttempts)
	}
	if e := f.Escalation; e != nil {
		c.factor("$.escalation.factor", e.Factor, 0, "or 1, which turn escalation off")
		c.count("$.escalation.max", e.Max, MaxAttempts)
		c.count("$.escalation.ceiling", e.Ceiling, MaxTokens)
	}
	if a := f.Adjust; a != nil {
		c.count("$.adjust.buffer", a.Buffer, MaxTokens)
		c.count("$.adjust.floor", a.Floor, MaxTokens)
	}
	if cp := f.Compaction; cp != nil {
		c.count("$.compaction.keep_recent", cp.KeepRecent, MaxTokens)
		c.count("$.compaction.max", cp.Max, MaxAttempts)
		c.count("$.compaction.summary_max_tokens", cp.SummaryMaxTokens, MaxTokens)
		c.ratio("$.compaction.learned_window_ratio", cp.LearnedWindowRatio)
		c.ratio("$.compaction.too_large_as_overflow", cp.TooLargeAsOverflow)
	}
	if g := f.LoopGuard; g != nil {
		for _, t := range []struct {
			name string
			v    *int
		}{
			{"window", g.Window}, {"repeat_warn", g.RepeatWarn}, {"repeat_break", g.RepeatBreak},
			{"ping_pong_warn", g.PingPongWarn}, {"ping_pong_break", g.PingPongBreak},
			{"no_progress_warn", g.NoProgressWarn}, {"no_progress_break", g.NoProgressBreak},
		} {
			c.count("$.loop_guard."+t.name, t.v, MaxAttempts)
		}
	}
	f.checkPolicies(&c)
	f.write(s)
	return c.probs
}

// write writes f over s; apply has checked its values.
func (f *doc) write(s *recovery.Strategy) {
	set(&s.Name, f.Name)
	set(&s.Description, f.Description)
	set(&s.Classify, f.Classify)
	set(&s.Attempts, f.Attempts)
	set(&s.TurnAttempts, f.TurnAttempts)
	writeBackoff(&s.Backoff, f.Backoff)
	if b := f.Backoff; b != nil {
		set(&s.Backoff.Running, b.Running)
	}
	if r := f.Rounds; r != nil {
		set(&s.Rounds.Max, r.Max)
		if r.Retry != nil {
			s.Rounds.Retry = kinds(r.Retry)
		}
		writeBackoff(&s.Rounds.Backoff, r.Backoff)
	}
	set(&s.SleepAfterFinal, f.SleepAfterFinal)
	if f.Retry != nil {
		s.Retry = kinds(f.Retry)
	}
	if f.RetryStatuses != nil {
		s.RetryStatuses = []int{}
		for _, st := range *f.RetryStatuses {
			s.RetryStatuses = append(s.RetryStatuses, st...)
		}
	}
	if f.ShouldRetry != nil {
		s.ShouldRetry = recovery.ShouldRetryMode(*f.ShouldRetry)
	}
	set(&s.ShouldRetryPermanent, f.ShouldRetryPermanent)
	set(&s.GiveUpMidStream, f.GiveUpMidStream)
	if r := f.RetryAfter; r != nil {
		if r.Honor != nil {
			s.RetryAfter.Honor = recovery.RetryAfterMode(*r.Honor)
		}
		set(&s.RetryAfter.RateLimitReset, r.RateLimitReset)
		setDuration(&s.RetryAfter.Cap, r.Cap)
		set(&s.RetryAfter.RetryInfo, r.RetryInfo)
		set(&s.RetryAfter.Jitter, r.Jitter)
		if r.AboveCap != nil {
			s.RetryAfter.AboveCap = recovery.AboveCap(*r.AboveCap)
		}
	}
	setDuration(&s.WaitBudget, f.WaitBudget)
	set(&s.Persistent, f.Persistent)
	setDuration(&s.PersistentCap, f.PersistentCap)
	setDuration(&s.Heartbeat, f.Heartbeat)
	if fb := f.Fallback; fb != nil {
		set(&s.Fallback.After, fb.After)
		if fb.On != nil {
			s.Fallback.On = kinds(fb.On)
		}
		set(&s.Fallback.OnExhausted, fb.OnExhausted)
	}
	if f.Auth != nil {
		s.Auth = recovery.AuthMode(*f.Auth)
	}
	set(&s.ClampMaxTokens, f.ClampMaxTokens)
	set(&s.ShedBackground, f.ShedBackground)
	if e := f.Escalation; e != nil {
		set(&s.Escalation.Factor, e.Factor)
		set(&s.Escalation.Max, e.Max)
		set(&s.Escalation.Ceiling, e.Ceiling)
		set(&s.Escalation.Unclamped, e.Unclamped)
		set(&s.Escalation.WithinStep, e.WithinStep)
	}
	if a := f.Adjust; a != nil {
		set(&s.Adjust.Enabled, a.Enabled)
		set(&s.Adjust.Buffer, a.Buffer)
		set(&s.Adjust.Floor, a.Floor)
		set(&s.Adjust.WithinStep, a.WithinStep)
	}
	if c := f.Compaction; c != nil {
		set(&s.Compaction.Enabled, c.Enabled)
		set(&s.Compaction.KeepRecent, c.KeepRecent)
		set(&s.Compaction.Max, c.Max)
		set(&s.Compaction.SummaryMaxTokens, c.SummaryMaxTokens)
		set(&s.Compaction.LearnedWindowRatio, c.LearnedWindowRatio)
		set(&s.Compaction.TooLargeAsOverflow, c.TooLargeAsOverflow)
		set(&s.Compaction.LearnFromEstimate, c.LearnFromEstimate)
	}
	set(&s.Preflight, f.Preflight)
	if g := f.LoopGuard; g != nil {
		set(&s.LoopGuard.Enabled, g.Enabled)
		for _, t := range []struct {
			name string
			src  *int
			dst  *int
		}{
			{"window", g.Window, &s.LoopGuard.Window},
			{"repeat_warn", g.RepeatWarn, &s.LoopGuard.RepeatWarn},
			{"repeat_break", g.RepeatBreak, &s.LoopGuard.RepeatBreak},
			{"ping_pong_warn", g.PingPongWarn, &s.LoopGuard.PingPongWarn},
			{"ping_pong_break", g.PingPongBreak, &s.LoopGuard.PingPongBreak},
			{"no_progress_warn", g.NoProgressWarn, &s.LoopGuard.NoProgressWarn},
			{"no_progress_break", g.NoProgressBreak, &s.LoopGuard.NoProgressBreak},
		} {
			set(t.dst, t.src)
		}
	}
	set(&s.StepCap, f.StepCap)
	f.writePolicies(s)
	f.writeCache(s)
}
