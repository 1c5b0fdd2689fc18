package recovery_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/faultbench/faultbench/recovery"
)

// The zero strategy's effective values are the defaults its fields'
// docs state.
func TestEffectiveResolvesEveryDocumentedDefault(t *testing.T) {
	e := recovery.Strategy{Classify: true, Persistent: true}.Effective()
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"attempts", e.Attempts, 5},
		{"turn_attempts (persistent)", e.TurnAttempts, 1000},
		{"backoff.base", e.Backoff.Base, time.Second},
		{"backoff.factor", e.Backoff.Factor, 2.0},
		{"backoff.jitter", e.Backoff.Jitter, recovery.JitterNone},
		{"backoff.jitter_ratio", e.Backoff.JitterRatio, 0.25},
		{"retry", e.Retry, recovery.TransientKinds()},
		{"rounds.retry", e.Rounds.Retry, recovery.TransientKinds()},
		{"should_retry", e.ShouldRetry, recovery.ShouldRetryHonor},
		{"retry_after.honor", e.RetryAfter.Honor, recovery.RetryAfterIgnore},
		{"retry_after.above_cap", e.RetryAfter.AboveCap, recovery.AboveCapWait},
		{"wait_budget (persistent)", e.WaitBudget, 6 * time.Hour},
		{"persistent_cap", e.PersistentCap, 5 * time.Minute},
		{"auth", e.Auth, recovery.AuthStop},
		{"escalation.max", e.Escalation.Max, 3},
		{"adjust.buffer", e.Adjust.Buffer, 1000},
		{"adjust.floor", e.Adjust.Floor, 3000},
		{"compaction.keep_recent", e.Compaction.KeepRecent, 6},
		{"compaction.max", e.Compaction.Max, 3},
		{"compaction.summary_max_tokens", e.Compaction.SummaryMaxTokens, 4096},
		{"compaction.learned_window_ratio", e.Compaction.LearnedWindowRatio, 0.85},
		{"loop_guard.window", e.LoopGuard.Window, 20},
		{"loop_guard.no_progress_break", e.LoopGuard.NoProgressBreak, 3},
		{"step_cap", e.StepCap, recovery.DefaultStepCap},
		{"rate_limiter.max_wait", e.RateLimiter.MaxWait, 2 * time.Minute},
		{"retry_budget.window", e.RetryBudget.Window, 10 * time.Second},
		{"circuit_breaker.failure_threshold", e.CircuitBreaker.FailureThreshold, 5},
		{"circuit_breaker.delay", e.CircuitBreaker.Delay, 30 * time.Second},
		{"adaptive_limiter.initial_limit", e.AdaptiveLimiter.InitialLimit, 20},
		{"adaptive_limiter.max_limit", e.AdaptiveLimiter.MaxLimit, 200},
		{"adaptive_limiter.backoff_ratio", e.AdaptiveLimiter.BackoffRatio, 0.9},
		{"prompt_cache.ttl", e.PromptCache.TTL, recovery.CacheTTL5m},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	// Rounds with no retry list of their own take the strategy's.
	own := []recovery.Kind{recovery.KindServer}
	if e := (recovery.Strategy{Retry: own, Rounds: recovery.Rounds{Max: 2}}).Effective(); !slices.Equal(e.Rounds.Retry, own) {
		t.Errorf("rounds.retry %v, want the strategy's %v", e.Rounds.Retry, own)
	}
	// Outside persistent mode "no bound" stays no bound.
	if e := (recovery.Strategy{Classify: true}).Effective(); e.WaitBudget != 0 || e.TurnAttempts != 0 {
		t.Errorf("wait budget %v, turn attempts %d: want no bound", e.WaitBudget, e.TurnAttempts)
	}
}

// Effective resolves once: the effective strategy of an effective
// strategy is itself, and it leaves the preset it came from unchanged.
func TestEffectiveIsIdempotent(t *testing.T) {
	for _, p := range recovery.Presets() {
		before := p.Clone()
		e := p.Effective()
		if again := e.Effective(); !reflect.DeepEqual(again, e) {
			t.Errorf("%s: Effective of Effective differs:\n%+v\n%+v", p.Name, again, e)
		}
		if !reflect.DeepEqual(p, before) {
			t.Errorf("%s: Effective changed the preset", p.Name)
		}
		if p.Retry != nil && !slices.Equal(e.Retry, p.Retry) {
			t.Errorf("%s: retry list changed", p.Name)
		}
	}
}
