package strategyfile

import (
	"fmt"
	"math"
	"time"
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

// checker collects the problems of range of a strategy file.
type checker struct{ probs []problem }

func (c *checker) bad(path, format string, args ...any) {
	c.probs = append(c.probs, problem{path: path, msg: fmt.Sprintf(format, args...)})
}

// count checks a whole number from 0 to ceiling.
func (c *checker) count(path string, v *int, ceiling int) {
	switch {
	case v == nil:
	case *v < 0:
		c.bad(path, "must be >= 0, got %d", *v)
	case *v > ceiling:
		c.bad(path, "must be <= %d (the ceiling), got %d", ceiling, *v)
	}
}

// wait checks a duration against MaxWait (durations are never negative:
// the decoder refuses them).
func (c *checker) wait(path string, d *duration) {
	if d != nil && time.Duration(*d) > MaxWait {
		c.bad(path, "must be <= %s (the ceiling on waits), got %s", MaxWait, time.Duration(*d))
	}
}

// heartbeat checks a heartbeat: 0 (none), or MinHeartbeat to MaxWait.
func (c *checker) heartbeat(path string, d *duration) {
	if d != nil && *d != 0 && time.Duration(*d) < MinHeartbeat {
		c.bad(path, "must be 0 (none) or >= %s (the floor on heartbeats), got %s", MinHeartbeat, time.Duration(*d))
		return
	}
	c.wait(path, d)
}

// finite checks that a number is one: .nan and .inf are refused.
func (c *checker) finite(path string, v *float64) bool {
	if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
		c.bad(path, "must be a finite number, got %v", *v)
		return false
	}
	return true
}

// ratio checks a number from 0 to 1.
func (c *checker) ratio(path string, v *float64) {
	if c.finite(path, v) && v != nil && (*v < 0 || *v > 1) {
		c.bad(path, "must be from 0 to 1, got %v", *v)
	}
}

// factor checks a growth factor: lo (or 0 for the default) to MaxFactor.
func (c *checker) factor(path string, v *float64, lo float64, zero string) {
	switch {
	case !c.finite(path, v) || v == nil:
	case *v != 0 && *v < lo:
		c.bad(path, "must be >= %g (or 0 %s), got %v", lo, zero, *v)
	case *v > MaxFactor:
		c.bad(path, "must be <= %d (the ceiling on factors), got %v", MaxFactor, *v)
	}
}
