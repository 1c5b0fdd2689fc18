package property

import (
	"fmt"
	"slices"
	"strings"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/loopguard"
)

// A Setting is one reason a strategy may break a property: the setting,
// as a strategy file writes it, and whether s has it.
type Setting func(s recovery.Strategy) (string, bool)

type setting = Setting

// Explain names the first of the settings s has that explains a broken
// property; when none does, the engine broke it on its own.
func Explain(s recovery.Strategy, settings ...Setting) string {
	return settingOf(s, settings...)
}

func settingOf(s recovery.Strategy, settings ...setting) string {
	for _, f := range settings {
		if name, ok := f(s); ok {
			return "the strategy sets " + name
		}
	}
	return "no setting of the strategy allows it (an engine bug)"
}

func notClassify(s recovery.Strategy) (string, bool) {
	return "classify: false (the naive loop resends every failure)", !s.Classify
}

func sleepAfterFinal(s recovery.Strategy) (string, bool) {
	return "sleep_after_final: true", s.SleepAfterFinal
}

func retryLists(k recovery.Kind) setting {
	return func(s recovery.Strategy) (string, bool) {
		retry := s.Retry
		if retry == nil {
			retry = recovery.TransientKinds()
		}
		return fmt.Sprintf("retry: [%s], which lists %s", joinKinds(retry), k), slices.Contains(retry, k)
	}
}

// roundsList names the outer retry loop when it starts a new round on k.
func roundsList(k recovery.Kind) setting {
	return func(s recovery.Strategy) (string, bool) {
		kinds := s.Rounds.Retry
		if kinds == nil {
			kinds = s.Retry
		}
		if kinds == nil {
			kinds = recovery.TransientKinds()
		}
		return fmt.Sprintf("rounds: {max: %d, retry: [%s]}, which lists %s (a new round resends it)", s.Rounds.Max, joinKinds(kinds), k),
			s.Classify && s.Rounds.Max > 0 && slices.Contains(kinds, k)
	}
}

func shouldRetryPermanent(s recovery.Strategy) (string, bool) {
	return "should_retry_permanent: true (x-should-retry: true resends it)", s.ShouldRetryPermanent
}

func ignoresShouldRetry(s recovery.Strategy) (string, bool) {
	return "should_retry: ignore", s.ShouldRetry == recovery.ShouldRetryIgnore
}

func noShed(s recovery.Strategy) (string, bool) {
	return "shed_background: false", !s.ShedBackground
}

func noRepair(s recovery.Strategy) (string, bool) {
	return "adjust.enabled: false and compaction.enabled: false", !s.Adjust.Enabled && !s.Compaction.Enabled
}

func escalationUnclamped(s recovery.Strategy) (string, bool) {
	return "escalation.unclamped: true", s.Escalation.Unclamped && s.Escalation.Factor > 1
}

func authWithinAttempts(s recovery.Strategy) (string, bool) {
	return "auth: within_attempts (a 401 is resent within the step's attempts)", s.Auth == recovery.AuthWithinAttempts
}

// breaksAtOnce names a detector's break threshold when it is not above
// its warn threshold: the detector breaks at once, with no warning.
func breaksAtOnce(d loopguard.Detector) setting {
	return func(s recovery.Strategy) (string, bool) {
		g := s.LoopGuard
		brk := map[loopguard.Detector]int{loopguard.Repeat: g.RepeatBreak, loopguard.PingPong: g.PingPongBreak, loopguard.NoProgress: g.NoProgressBreak}[d]
		return fmt.Sprintf("loop_guard.%s_break: %d, not above %s_warn (it breaks at once, with no warning)", d, brk, d),
			s.LoopGuard.Enabled && g.AtOnce(d)
	}
}

func joinKinds(ks []recovery.Kind) string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return strings.Join(out, ", ")
}
