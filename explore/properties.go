package explore

import (
	"fmt"
	"slices"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// Broken is a property of docs/properties.md that one run broke.
type Broken struct {
	Property string
	Detail   string
}

// check is one property of the suite, over one run's result: the
// non-rapid form of the proptest property of the same name, which explore
// can apply to a scenario it made itself.
type check func(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) string

// checks lists the properties explore applies, in the order of
// docs/properties.md. LedgerEqualsJournal is the harness's own: a run
// whose record disagrees with the journal is an error, reported as such.
// SameSeedSameLedger needs two runs and is not checked per run;
// WaitsWithinBounds only as to the cap and the budget (docs/explore.md).
var checks = []struct {
	name string
	f    check
}{
	{"NeverResendsAfterPermanentError", neverResendsAfterPermanent},
	{"NoSleepAfterFinalAttempt", noSleepAfterFinal},
	{"WaitsWithinBounds", waitsWithinBounds},
	{"ShouldRetryFalseNeverResent", shouldRetryFalseNeverResent},
	{"AuthRefreshAtMostOnce", authRefreshAtMostOnce},
	{"BackgroundNeverRetriesOverload", backgroundNeverRetriesOverload},
	{"NoAttemptExceedsWindowAfterOverflow", noAttemptExceedsWindow},
	{"MaxTokensWithinOutputLimit", maxTokensWithinOutputLimit},
	{"StuckLoopEndsWithinStepCap", stuckLoopEndsWithinStepCap},
}

// Violations lists the properties r, a run of s on sc, breaks.
func Violations(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) []Broken {
	var out []Broken
	for _, c := range checks {
		if d := c.f(sc, s, r); d != "" {
			out = append(out, Broken{Property: c.name, Detail: d})
		}
	}
	return out
}

func neverResendsAfterPermanent(_ *scenario.Scenario, s recovery.Strategy, r ledger.Result) string {
	permanent := map[string]bool{"invalid_request": true, "permission": true, "quota_exhausted": true}
	for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
		if !permanent[a.Kind] {
			continue
		}
		next := r.AttemptsLog[i+1]
		if s.Classify && slices.Contains(s.FallbackOn, recovery.Kind(a.Kind)) && next.Model != a.Model {
			continue
		}
		return fmt.Sprintf("attempt %d was %s, yet attempt %d followed on %s", a.N, a.Kind, next.N, next.Model)
	}
	return ""
}

func noSleepAfterFinal(_ *scenario.Scenario, _ recovery.Strategy, r ledger.Result) string {
	var before int64
	for _, a := range r.AttemptsLog {
		before += a.WaitBeforeMS
	}
	for _, a := range r.RepairLog {
		before += a.WaitBeforeMS
	}
	if r.WaitMS != before {
		return fmt.Sprintf("waited %d ms in all but only %d ms before attempts", r.WaitMS, before)
	}
	return ""
}

func waitsWithinBounds(_ *scenario.Scenario, s recovery.Strategy, r ledger.Result) string {
	var total int64
	for _, a := range r.AttemptsLog {
		total += a.WaitBeforeMS
		if c := s.RetryAfterCap; s.Classify && c > 0 {
			_, hi := s.Backoff.Bounds(s.Attempts)
			if a.WaitBeforeMS > max(c, hi).Milliseconds() {
				return fmt.Sprintf("attempt %d waited %d ms, above the %v cap", a.N, a.WaitBeforeMS, c)
			}
		}
	}
	if b := s.WaitBudget; b > 0 && total > b.Milliseconds() {
		return fmt.Sprintf("waited %d ms in all, above the %v budget", total, b)
	}
	return ""
}

// shouldRetryFalseNeverResent relies on the generator's promise that of
// its faults only the 503 says x-should-retry: false. A 503 is taken to
// have said so only when no rule answers a 529 or an error_after fault,
// which the OpenAI wires serve as a 503 too.
func shouldRetryFalseNeverResent(sc *scenario.Scenario, _ recovery.Strategy, r ledger.Result) string {
	if slices.ContainsFunc(sc.Script, func(ru scenario.Rule) bool {
		return ru.Respond.Status == 529 || ru.Respond.Fault.Kind == scenario.FaultError
	}) {
		return ""
	}
	for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
		next := r.AttemptsLog[i+1]
		if a.Status == 503 && next.Model == a.Model && next.MaxTokens == a.MaxTokens && next.InputTokens == a.InputTokens {
			return fmt.Sprintf("attempt %d said x-should-retry: false, and attempt %d resent it unchanged", a.N, next.N)
		}
	}
	return ""
}

func authRefreshAtMostOnce(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) string {
	refreshes := 0
	for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
		if a.Status == 401 && r.AttemptsLog[i+1].Model == a.Model {
			refreshes++
		}
	}
	switch {
	case refreshes > 1:
		return fmt.Sprintf("resent a 401 %d times in one turn", refreshes)
	case refreshes == 1 && (!sc.Turn.AuthRefresh || !s.RefreshAuth):
		return "retried a 401 with no refresh to make"
	}
	return ""
}

func backgroundNeverRetriesOverload(sc *scenario.Scenario, _ recovery.Strategy, r ledger.Result) string {
	if !sc.Turn.Background {
		return ""
	}
	for i, a := range r.AttemptsLog {
		if a.Kind == "overloaded" && i != len(r.AttemptsLog)-1 {
			return fmt.Sprintf("background attempt %d was overloaded, yet %d more followed", a.N, len(r.AttemptsLog)-1-i)
		}
	}
	return ""
}

func noAttemptExceedsWindow(sc *scenario.Scenario, _ recovery.Strategy, r ledger.Result) string {
	seen := false
	for _, a := range r.AttemptsLog {
		if w := sc.Models[a.Model].ContextWindow; seen && a.InputTokens+a.MaxTokens > w {
			return fmt.Sprintf("attempt %d: %d + %d > window %d after an overflow was seen", a.N, a.InputTokens, a.MaxTokens, w)
		}
		if a.Kind == string(recovery.KindContextOverflow) {
			seen = true
		}
	}
	return ""
}

func maxTokensWithinOutputLimit(sc *scenario.Scenario, _ recovery.Strategy, r ledger.Result) string {
	for _, a := range append(append([]ledger.Attempt(nil), r.AttemptsLog...), r.RepairLog...) {
		if limit := sc.Models[a.Model].MaxOutput; a.MaxTokens > limit {
			return fmt.Sprintf("%s %d asked %d max_tokens of %s, whose limit is %d", a.Purpose, a.N, a.MaxTokens, a.Model, limit)
		}
	}
	return ""
}

func stuckLoopEndsWithinStepCap(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) string {
	if len(sc.Tools) == 0 {
		return ""
	}
	limit := s.StepCap
	if limit <= 0 {
		limit = recovery.DefaultStepCap
	}
	switch {
	case r.Steps < 1 || r.Steps > limit:
		return fmt.Sprintf("%d steps, cap %d", r.Steps, limit)
	case r.LoopDetector == recovery.DetectorStepCap && r.Steps != limit:
		return fmt.Sprintf("stopped by the cap at %d steps, cap %d", r.Steps, limit)
	case r.LoopDetector != "" && r.LoopDetector != recovery.DetectorStepCap && r.LoopWarnings == 0:
		return fmt.Sprintf("%s broke the turn with no warning first", r.LoopDetector)
	case (r.Outcome == ledger.OutcomeAborted) != (r.LoopDetector != ""):
		return fmt.Sprintf("outcome %s, detector %q", r.Outcome, r.LoopDetector)
	}
	return ""
}
