package property

import (
	"fmt"
	"slices"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/loopguard"
	"github.com/faultbench/faultbench/scenario"
)

// Check is one property over one run: r is what strategy s did on sc. It
// returns nil when the property holds, or an error saying what broke it
// and which setting of s explains that.
type Check func(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error

// Property is a named Check.
type Property struct {
	Name  string
	Check Check
	// OptIn marks a property documented sources disagree on: it is not in
	// Default, and runs only when asked for by name.
	OptIn bool
}

// All lists every per-run property, in the order docs/properties.md
// gives.
func All() []Property {
	return []Property{
		{Name: "NeverResendsAfterPermanentError", Check: NeverResendsAfterPermanentError},
		{Name: "NoSleepAfterFinalAttempt", Check: NoSleepAfterFinalAttempt},
		{Name: "WaitsWithinBounds", Check: WaitsWithinBounds},
		{Name: "ShouldRetryFalseNeverResent", Check: ShouldRetryFalseNeverResent},
		{Name: "AuthRefreshAtMostOnce", Check: AuthRefreshAtMostOnce},
		{Name: "BackgroundNeverRetriesOverload", Check: BackgroundNeverRetriesOverload},
		{Name: "NoAttemptExceedsWindowAfterOverflow", Check: NoAttemptExceedsWindowAfterOverflow},
		{Name: "MaxTokensWithinOutputLimit", Check: MaxTokensWithinOutputLimit},
		{Name: "StuckLoopEndsWithinStepCap", Check: StuckLoopEndsWithinStepCap},
		{Name: "BilledWithinCachedFigures", Check: BilledWithinCachedFigures},
		{Name: "CacheFollowsItsLifetime", Check: CacheFollowsItsLifetime},
		{Name: "LoopGuardWarnsFirst", Check: LoopGuardWarnsFirst, OptIn: true},
	}
}

// Default lists the per-run properties of the default suite: All but the
// opt-in ones. classify, classify-preflight and classify-fleet keep every
// one of them.
func Default() []Property {
	return slices.DeleteFunc(All(), func(p Property) bool { return p.OptIn })
}

// broken is a property's error: what happened, then the setting.
func broken(s recovery.Strategy, what string, settings ...setting) error {
	return fmt.Errorf("%s: %s", what, settingOf(s, settings...))
}

var permanent = map[string]bool{"invalid_request": true, "permission": true, "quota_exhausted": true}

// NeverResendsAfterPermanentError: a strategy sends nothing after
// invalid_request, permission or quota_exhausted, except to another model
// when it falls back on that kind. It fails for the naive loop (classify:
// false), for a strategy whose retry list names the kind (s11, the SDKs and
// Claude Code retry a quota 429, as their sources do) and for one that lets
// x-should-retry: true resend a permanent failure (should_retry_permanent).
func NeverResendsAfterPermanentError(_ *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
		if !permanent[a.Kind] {
			continue
		}
		k, next := recovery.Kind(a.Kind), r.AttemptsLog[i+1]
		if s.Classify && slices.Contains(s.Fallback.On, k) && next.Model != a.Model {
			continue
		}
		return broken(s, fmt.Sprintf("attempt %d was %s, yet attempt %d followed on %s", a.N, a.Kind, next.N, next.Model),
			notClassify, retryLists(k), roundsList(k), shouldRetryPermanent)
	}
	return nil
}

// NoSleepAfterFinalAttempt: every wait comes before an attempt, none after
// the last. It fails for the naive loop with sleep_after_final: true.
func NoSleepAfterFinalAttempt(_ *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	var before int64
	for _, a := range r.AttemptsLog {
		before += a.WaitBeforeMS
	}
	for _, a := range r.RepairLog {
		before += a.WaitBeforeMS
	}
	if r.WaitMS != before {
		return broken(s, fmt.Sprintf("waited %d ms in all but only %d ms before attempts: a wait came after the last one", r.WaitMS, before),
			sleepAfterFinal)
	}
	return nil
}

// ShouldRetryFalseNeverResent: after an answer with x-should-retry: false,
// a strategy never resends the same request unchanged. It fails for one
// that does not read the header (should_retry: ignore) and for the naive
// loop. A 503 is taken to have said false when every rule of the script
// that answers 503 says so, and no rule answers a 529 or an error_after
// fault, which the OpenAI wires serve as a 503 too.
func ShouldRetryFalseNeverResent(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	if !saidFalseOn503(sc) {
		return nil
	}
	for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
		if a.Status != 503 {
			continue
		}
		next := r.AttemptsLog[i+1]
		if next.Model == a.Model && next.MaxTokens == a.MaxTokens && next.InputTokens == a.InputTokens {
			return broken(s, fmt.Sprintf("attempt %d said x-should-retry: false, and attempt %d resent it unchanged", a.N, next.N),
				notClassify, ignoresShouldRetry)
		}
	}
	return nil
}

// saidFalseOn503 reports whether a 503 of sc's script always says
// x-should-retry: false.
func saidFalseOn503(sc *scenario.Scenario) bool {
	for _, ru := range sc.Script {
		rs := ru.Respond
		if rs.Status == 529 || rs.Fault.Kind == scenario.FaultError {
			return false
		}
		if rs.Status == 503 && header(rs.Headers, "x-should-retry") != "false" {
			return false
		}
	}
	return true
}

// AuthRefreshAtMostOnce: a 401 is retried on the same model at most once
// per turn, and only where there is a refresh to make. It fails for the
// naive loop, which resends a 401 as it resends anything.
func AuthRefreshAtMostOnce(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	refreshes := 0
	for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
		if a.Status == 401 && r.AttemptsLog[i+1].Model == a.Model {
			refreshes++
		}
	}
	switch {
	case refreshes > 1:
		return broken(s, fmt.Sprintf("resent a 401 %d times in one turn", refreshes), notClassify, authWithinAttempts, retryLists(recovery.KindAuth), roundsList(recovery.KindAuth))
	case refreshes == 1 && (!sc.Turn.AuthRefresh || s.Auth != recovery.AuthRefresh):
		return broken(s, "retried a 401 with no refresh to make", notClassify, authWithinAttempts, retryLists(recovery.KindAuth), roundsList(recovery.KindAuth))
	}
	return nil
}

// BackgroundNeverRetriesOverload: a background request is given up on its
// first overload. It fails for a strategy that does not shed background
// load (shed_background: false) and for the naive loop.
func BackgroundNeverRetriesOverload(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	if !sc.Turn.Background {
		return nil
	}
	for i, a := range r.AttemptsLog {
		if a.Kind == string(recovery.KindOverloaded) && i != len(r.AttemptsLog)-1 {
			return broken(s, fmt.Sprintf("background attempt %d was overloaded, yet %d more followed", a.N, len(r.AttemptsLog)-1-i),
				notClassify, noShed)
		}
	}
	return nil
}

// NoAttemptExceedsWindowAfterOverflow: once an overflow was seen, every
// attempt's input + max_tokens fits the model's window. It fails for a
// strategy that neither adjusts nor compacts, and for the naive loop.
func NoAttemptExceedsWindowAfterOverflow(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	seen := false
	for _, a := range r.AttemptsLog {
		if w := sc.Models[a.Model].ContextWindow; seen && a.InputTokens+a.MaxTokens > w {
			return broken(s, fmt.Sprintf("attempt %d: %d + %d > window %d after an overflow was seen", a.N, a.InputTokens, a.MaxTokens, w),
				notClassify, noRepair)
		}
		if a.Kind == string(recovery.KindContextOverflow) {
			seen = true
		}
	}
	return nil
}

// MaxTokensWithinOutputLimit: no request asks more max_tokens than the
// model can give. It fails for an escalation bounded by its ceiling alone
// (s11's escalation.unclamped: true).
func MaxTokensWithinOutputLimit(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	for _, a := range append(append([]ledger.Attempt(nil), r.AttemptsLog...), r.RepairLog...) {
		if limit := sc.Models[a.Model].MaxOutput; a.MaxTokens > limit {
			return broken(s, fmt.Sprintf("%s %d asked %d max_tokens of %s, whose limit is %d", a.Purpose, a.N, a.MaxTokens, a.Model, limit),
				escalationUnclamped)
		}
	}
	return nil
}

// StuckLoopEndsWithinStepCap: an agent turn ends within the strategy's
// step cap; only a strategy with a guard warns or breaks; a turn stopped
// by the cap took exactly the cap's steps; an aborted turn names what
// stopped it. A turn without tools holds it trivially.
func StuckLoopEndsWithinStepCap(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	if len(sc.Tools) == 0 {
		return nil
	}
	limit := s.Effective().StepCap
	switch {
	case r.Steps < 1 || r.Steps > limit:
		return fmt.Errorf("%d steps, cap %d: %s", r.Steps, limit, settingOf(s))
	case r.LoopDetector == recovery.DetectorStepCap && r.Steps != limit:
		return fmt.Errorf("stopped by the cap at %d steps, cap %d: %s", r.Steps, limit, settingOf(s))
	case !s.LoopGuard.Enabled && (r.LoopWarnings > 0 || (r.LoopDetector != "" && r.LoopDetector != recovery.DetectorStepCap)):
		return fmt.Errorf("no guard, yet %d warnings and detector %q: %s", r.LoopWarnings, r.LoopDetector, settingOf(s))
	case (r.Outcome == ledger.OutcomeAborted) != (r.LoopDetector != ""):
		return fmt.Errorf("outcome %s, detector %q: %s", r.Outcome, r.LoopDetector, settingOf(s))
	}
	return nil
}

// LoopGuardWarnsFirst (opt-in): a turn the loop guard broke had been
// warned first, so the model was told it was repeating itself before it
// was stopped. It fails for a detector whose break threshold equals its
// warn threshold, which breaks at once (classify's no_progress, as the
// layered agent demo does): documented sources disagree on it.
func LoopGuardWarnsFirst(_ *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	if r.LoopDetector == "" || r.LoopDetector == recovery.DetectorStepCap || r.LoopWarnings > 0 {
		return nil
	}
	return broken(s, fmt.Sprintf("%s broke the turn with no warning first", r.LoopDetector),
		breaksAtOnce(loopguard.Detector(r.LoopDetector)))
}
