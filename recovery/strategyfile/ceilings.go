package strategyfile

import (
	"fmt"
	"math"
	"time"

	"github.com/faultbench/faultbench/recovery"
)

// The ceilings on a strategy file's values. A strategy runs on a virtual
// clock, so what they bound is the work of a run, not its time: without
// them attempts: 1e9 with backoff.base: 0 runs for days.
const (
	// MaxFileBytes is the largest strategy file: 64 KiB. The presets
	// print in under 2 KB; the loader parses a file twice (for its lines
	// and for its values), so it gets a smaller ceiling than scenarios.
	MaxFileBytes = 64 << 10
	// MaxAttempts bounds attempts, turn_attempts, fallback.after,
	// escalation.max, compaction.max, every loop_guard threshold,
	// retry_budget.min_retries and circuit_breaker.failure_threshold:
	// 1,000.
	MaxAttempts = 1000
	// MaxSteps bounds step_cap, the steps of an agent turn: 10,000.
	MaxSteps = 10_000
	// MaxWait bounds every duration (backoff.base and cap,
	// retry_after.cap, wait_budget, persistent_cap, heartbeat,
	// rate_limiter.max_wait, retry_budget.window, circuit_breaker.delay):
	// 24 hours.
	MaxWait = 24 * time.Hour
	// MinHeartbeat is the shortest heartbeat, when one is set: 1 s. A wait
	// goes in chunks of the heartbeat, an event for each: heartbeat: 1ns
	// cut a wait of one second into a billion, and a run never ended.
	// Within the 24 h ceiling on the wait budget a turn then has at most
	// 86,400 of them.
	MinHeartbeat = time.Second
	// MaxFactor bounds backoff.factor and escalation.factor: 100.
	MaxFactor = 100
	// MaxTokens bounds the sizes in tokens (escalation.ceiling,
	// adjust.buffer and floor, compaction.summary_max_tokens) and
	// compaction.keep_recent: 5 million, the ceiling of scenario sizes.
	MaxTokens = 5_000_000
	// MaxConcurrency bounds the adaptive limiter's limits
	// (adaptive_limiter.initial_limit, min_limit and max_limit): 10,000
	// requests in flight.
	MaxConcurrency = 10_000
)

// problem is a value out of range, at a field path.
type problem struct {
	path string // goccy path: $.backoff.factor
	msg  string
}

// check checks every value of s against its range and ceiling. A preset
// passes every check, so a problem is in what the file set.
func check(s recovery.Strategy) []problem {
	var c checker
	c.count("$.attempts", s.Attempts, MaxAttempts)
	c.count("$.turn_attempts", s.TurnAttempts, MaxAttempts)
	c.count("$.step_cap", s.StepCap, MaxSteps)
	c.wait("$.wait_budget", s.WaitBudget)
	c.wait("$.persistent_cap", s.PersistentCap)
	c.heartbeat("$.heartbeat", s.Heartbeat)
	c.backoff("$.backoff", s.Backoff)
	c.wait("$.retry_after.cap", s.RetryAfter.Cap)
	c.ratio("$.retry_after.jitter", s.RetryAfter.Jitter)
	c.count("$.rounds.max", s.Rounds.Max, MaxAttempts)
	c.backoff("$.rounds.backoff", s.Rounds.Backoff)
	c.count("$.fallback.after", s.Fallback.After, MaxAttempts)
	e := s.Escalation
	c.factor("$.escalation.factor", e.Factor, 0, "or 1, which turn escalation off")
	c.count("$.escalation.max", e.Max, MaxAttempts)
	c.count("$.escalation.ceiling", e.Ceiling, MaxTokens)
	c.count("$.adjust.buffer", s.Adjust.Buffer, MaxTokens)
	c.count("$.adjust.floor", s.Adjust.Floor, MaxTokens)
	cp := s.Compaction
	c.count("$.compaction.keep_recent", cp.KeepRecent, MaxTokens)
	c.count("$.compaction.max", cp.Max, MaxAttempts)
	c.count("$.compaction.summary_max_tokens", cp.SummaryMaxTokens, MaxTokens)
	c.ratio("$.compaction.learned_window_ratio", cp.LearnedWindowRatio)
	c.ratio("$.compaction.too_large_as_overflow", cp.TooLargeAsOverflow)
	g := s.LoopGuard
	for _, t := range []struct {
		name string
		v    int
	}{
		{"window", g.Window}, {"repeat_warn", g.RepeatWarn}, {"repeat_break", g.RepeatBreak},
		{"ping_pong_warn", g.PingPongWarn}, {"ping_pong_break", g.PingPongBreak},
		{"no_progress_warn", g.NoProgressWarn}, {"no_progress_break", g.NoProgressBreak},
	} {
		c.count("$.loop_guard."+t.name, t.v, MaxAttempts)
	}
	c.wait("$.rate_limiter.max_wait", s.RateLimiter.MaxWait)
	c.ratio("$.retry_budget.ratio", s.RetryBudget.Ratio)
	c.count("$.retry_budget.min_retries", s.RetryBudget.MinRetries, MaxAttempts)
	c.wait("$.retry_budget.window", s.RetryBudget.Window)
	c.count("$.circuit_breaker.failure_threshold", s.CircuitBreaker.FailureThreshold, MaxAttempts)
	c.wait("$.circuit_breaker.delay", s.CircuitBreaker.Delay)
	a := s.AdaptiveLimiter
	c.count("$.adaptive_limiter.initial_limit", a.InitialLimit, MaxConcurrency)
	c.count("$.adaptive_limiter.min_limit", a.MinLimit, MaxConcurrency)
	c.count("$.adaptive_limiter.max_limit", a.MaxLimit, MaxConcurrency)
	c.ratio("$.adaptive_limiter.backoff_ratio", a.BackoffRatio)
	if a.BackoffRatio == 1 {
		c.bad("$.adaptive_limiter.backoff_ratio", "must be below 1 (1 would never cut the limit; 0 takes the default 0.9), got 1")
	}
	if a.MaxLimit > 0 && a.MinLimit > a.MaxLimit {
		c.bad("$.adaptive_limiter.min_limit", "must be <= max_limit (%d), got %d", a.MaxLimit, a.MinLimit)
	}
	if ttl := s.PromptCache.TTL; ttl != 0 && ttl != recovery.CacheTTL5m && ttl != recovery.CacheTTL1h {
		c.bad("$.prompt_cache.ttl", "a cache lifetime is 5m or 1h, got %s", ttl)
	}
	return c.probs
}

// checker collects the problems of range of a strategy file.
type checker struct{ probs []problem }

func (c *checker) bad(path, format string, args ...any) {
	c.probs = append(c.probs, problem{path: path, msg: fmt.Sprintf(format, args...)})
}

// count checks a whole number from 0 to ceiling.
func (c *checker) count(path string, v int, ceiling int) {
	switch {
	case v < 0:
		c.bad(path, "must be >= 0, got %d", v)
	case v > ceiling:
		c.bad(path, "must be <= %d (the ceiling), got %d", ceiling, v)
	}
}

// wait checks a duration against MaxWait (durations are never negative:
// the reader refuses them).
func (c *checker) wait(path string, d time.Duration) {
	if d > MaxWait {
		c.bad(path, "must be <= %s (the ceiling on waits), got %s", MaxWait, d)
	}
}

// heartbeat checks a heartbeat: 0 (none), or MinHeartbeat to MaxWait.
func (c *checker) heartbeat(path string, d time.Duration) {
	if d != 0 && d < MinHeartbeat {
		c.bad(path, "must be 0 (none) or >= %s (the floor on heartbeats), got %s", MinHeartbeat, d)
		return
	}
	c.wait(path, d)
}

// backoff checks a backoff block at path.
func (c *checker) backoff(path string, b recovery.Backoff) {
	c.wait(path+".base", b.Base)
	c.wait(path+".cap", b.Cap)
	c.factor(path+".factor", b.Factor, 1, "for the default 2")
	c.ratio(path+".jitter_ratio", b.JitterRatio)
}

// finite checks that a number is one: .nan and .inf are refused.
func (c *checker) finite(path string, v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		c.bad(path, "must be a finite number, got %v", v)
		return false
	}
	return true
}

// ratio checks a number from 0 to 1.
func (c *checker) ratio(path string, v float64) {
	if c.finite(path, v) && (v < 0 || v > 1) {
		c.bad(path, "must be from 0 to 1, got %v", v)
	}
}

// factor checks a growth factor: lo (or 0 for the default) to MaxFactor.
func (c *checker) factor(path string, v float64, lo float64, zero string) {
	switch {
	case !c.finite(path, v):
	case v != 0 && v < lo:
		c.bad(path, "must be >= %g (or 0 %s), got %v", lo, zero, v)
	case v > MaxFactor:
		c.bad(path, "must be <= %d (the ceiling on factors), got %v", MaxFactor, v)
	}
}
