package strategyfile

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/recovery"
)

// Marshal writes s as a strategy file with every field spelt out, in the
// order of the file format, so that Parse reads back a strategy that
// behaves the same (a nil Retry list is written as the transient kinds it
// stands for).
func Marshal(s recovery.Strategy) []byte {
	var b strings.Builder
	line := func(indent int, key string, value string) {
		fmt.Fprintf(&b, "%s%s: %s\n", strings.Repeat("  ", indent), key, value)
	}
	group := func(key string) { fmt.Fprintf(&b, "%s:\n", key) }

	line(0, "name", quote(s.Name))
	if s.Description != "" {
		line(0, "description", quote(s.Description))
	}
	line(0, "classify", strconv.FormatBool(s.Classify))
	line(0, "attempts", strconv.Itoa(s.Attempts))
	line(0, "turn_attempts", strconv.Itoa(s.TurnAttempts))
	group("backoff")
	backoffLines(s.Backoff, 1, line)
	line(1, "running", strconv.FormatBool(s.Backoff.Running))
	group("rounds")
	line(1, "max", strconv.Itoa(s.Rounds.Max))
	if s.Rounds.Retry != nil {
		line(1, "retry", kindList(s.Rounds.Retry))
	}
	fmt.Fprintf(&b, "  backoff:\n")
	backoffLines(s.Rounds.Backoff, 2, line)
	line(0, "sleep_after_final", strconv.FormatBool(s.SleepAfterFinal))
	retry := s.Retry
	if retry == nil {
		retry = recovery.TransientKinds()
	}
	line(0, "retry", kindList(retry))
	line(0, "retry_statuses", "["+strings.Join(FormatStatuses(s.RetryStatuses), ", ")+"]")
	mode := s.ShouldRetry
	if mode == "" {
		mode = recovery.ShouldRetryHonor
	}
	line(0, "should_retry", string(mode))
	line(0, "should_retry_permanent", strconv.FormatBool(s.ShouldRetryPermanent))
	line(0, "give_up_mid_stream", strconv.FormatBool(s.GiveUpMidStream))
	group("retry_after")
	honor := "false"
	switch s.RetryAfter.Honor {
	case recovery.RetryAfterHonor:
		honor = "true"
	case recovery.RetryAfterSecondsOnly:
		honor = string(recovery.RetryAfterSecondsOnly)
	}
	line(1, "honor", honor)
	line(1, "rate_limit_reset", strconv.FormatBool(s.RetryAfter.RateLimitReset))
	line(1, "retry_info", strconv.FormatBool(s.RetryAfter.RetryInfo))
	line(1, "jitter", num(s.RetryAfter.Jitter))
	line(1, "cap", dur(s.RetryAfter.Cap))
	above := s.RetryAfter.AboveCap
	if above == "" {
		above = recovery.AboveCapWait
	}
	line(1, "above_cap", string(above))
	line(0, "wait_budget", dur(s.WaitBudget))
	line(0, "persistent", strconv.FormatBool(s.Persistent))
	line(0, "persistent_cap", dur(s.PersistentCap))
	line(0, "heartbeat", dur(s.Heartbeat))
	group("fallback")
	line(1, "after", strconv.Itoa(s.Fallback.After))
	line(1, "on", kindList(s.Fallback.On))
	line(1, "on_exhausted", strconv.FormatBool(s.Fallback.OnExhausted))
	auth := s.Auth
	if auth == "" {
		auth = recovery.AuthStop
	}
	line(0, "auth", string(auth))
	line(0, "clamp_max_tokens", strconv.FormatBool(s.ClampMaxTokens))
	line(0, "shed_background", strconv.FormatBool(s.ShedBackground))
	group("escalation")
	line(1, "factor", num(s.Escalation.Factor))
	line(1, "max", strconv.Itoa(s.Escalation.Max))
	line(1, "ceiling", strconv.Itoa(s.Escalation.Ceiling))
	line(1, "unclamped", strconv.FormatBool(s.Escalation.Unclamped))
	line(1, "within_step", strconv.FormatBool(s.Escalation.WithinStep))
	group("adjust")
	line(1, "enabled", strconv.FormatBool(s.Adjust.Enabled))
	line(1, "buffer", strconv.Itoa(s.Adjust.Buffer))
	line(1, "floor", strconv.Itoa(s.Adjust.Floor))
	line(1, "within_step", strconv.FormatBool(s.Adjust.WithinStep))
	group("compaction")
	line(1, "enabled", strconv.FormatBool(s.Compaction.Enabled))
	line(1, "keep_recent", strconv.Itoa(s.Compaction.KeepRecent))
	line(1, "max", strconv.Itoa(s.Compaction.Max))
	line(1, "summary_max_tokens", strconv.Itoa(s.Compaction.SummaryMaxTokens))
	line(1, "learned_window_ratio", num(s.Compaction.LearnedWindowRatio))
	line(1, "too_large_as_overflow", num(s.Compaction.TooLargeAsOverflow))
	line(1, "learn_from_estimate", strconv.FormatBool(s.Compaction.LearnFromEstimate))
	line(0, "preflight", strconv.FormatBool(s.Preflight))
	group("loop_guard")
	line(1, "enabled", strconv.FormatBool(s.LoopGuard.Enabled))
	g := s.LoopGuard
	line(1, "window", strconv.Itoa(g.Window))
	line(1, "repeat_warn", strconv.Itoa(g.RepeatWarn))
	line(1, "repeat_break", strconv.Itoa(g.RepeatBreak))
	line(1, "ping_pong_warn", strconv.Itoa(g.PingPongWarn))
	line(1, "ping_pong_break", strconv.Itoa(g.PingPongBreak))
	line(1, "no_progress_warn", strconv.Itoa(g.NoProgressWarn))
	line(1, "no_progress_break", strconv.Itoa(g.NoProgressBreak))
	line(0, "step_cap", strconv.Itoa(s.StepCap))
	marshalPolicies(s, line, group)
	marshalCache(s, line, group)
	return []byte(b.String())
}

// backoffLines writes a backoff's fields at indent.
func backoffLines(bo recovery.Backoff, indent int, line func(int, string, string)) {
	line(indent, "base", dur(bo.Base))
	line(indent, "factor", num(bo.Factor))
	line(indent, "cap", dur(bo.Cap))
	jit := bo.Jitter
	if jit == "" {
		jit = recovery.JitterNone
	}
	line(indent, "jitter", string(jit))
	line(indent, "jitter_ratio", num(bo.JitterRatio))
}

func quote(s string) string { return strconv.Quote(s) }

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// dur writes a duration the way Parse reads it: "0", "500ms", "32s", "6h".
func dur(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	s := d.String()
	// time.Duration writes 6h0m0s; trim the zero units for the reader.
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func kindList(ks []recovery.Kind) string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = string(k)
	}
	return "[" + strings.Join(names, ", ") + "]"
}
