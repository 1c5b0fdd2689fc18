package proptest

import (
	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/proptest/property"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// LedgerEqualsJournal: every strategy ends every generated script, and
// what it recorded equals the mock's journal, attempt for attempt and in
// its totals (Run reconciles each figure with what the mock saw, never
// with the record's own log), and its totals add up its log.
func LedgerEqualsJournal(strategies ...recovery.Strategy) func(*rapid.T) {
	return func(t *rapid.T) {
		rep := Run(t, Scenario().Draw(t, "scenario"), strategies...)
		if len(rep.Results) != len(strategies) {
			t.Fatalf("%d results for %d strategies", len(rep.Results), len(strategies))
		}
		for _, r := range rep.Results {
			if r.Attempts != len(r.AttemptsLog) || r.RepairCalls != len(r.RepairLog) {
				t.Fatalf("%s: totals disagree with the log", r.Strategy)
			}
			sum := 0
			for _, a := range r.AttemptsLog {
				sum += a.InputTokens
			}
			if sum != r.SubmittedInputTokens {
				t.Fatalf("%s: submitted %d, log adds to %d", r.Strategy, r.SubmittedInputTokens, sum)
			}
		}
	}
}

// perRun is a property of package property as a rapid check: each
// strategy's run on a script gen draws must keep it. Every property holds
// for each strategy handed to it or fails: none leaves out a strategy
// whose settings break it. A failure names the setting that explains it,
// as a strategy file writes it, or says that no setting does, which is an
// engine bug.
func perRun(check property.Check, gen *rapid.Generator[*scenario.Scenario], strategies []recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		sc := gen.Draw(t, "scenario")
		rep := Run(t, sc, strategies...)
		for _, r := range rep.Results {
			if err := check(sc, named[r.Strategy], r); err != nil {
				t.Fatalf("%s: %v", r.Strategy, err)
			}
		}
	}
}

// NeverResendsAfterPermanentError is property.NeverResendsAfterPermanentError
// over generated scripts.
func NeverResendsAfterPermanentError(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.NeverResendsAfterPermanentError, Scenario(), strategies)
}

// NoSleepAfterFinalAttempt is property.NoSleepAfterFinalAttempt over
// generated scripts.
func NoSleepAfterFinalAttempt(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.NoSleepAfterFinalAttempt, Scenario(), strategies)
}

// WaitsWithinBounds is property.WaitsWithinBounds over generated scripts.
func WaitsWithinBounds(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.WaitsWithinBounds, Scenario(), strategies)
}

// ShouldRetryFalseNeverResent is property.ShouldRetryFalseNeverResent
// over generated scripts.
func ShouldRetryFalseNeverResent(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.ShouldRetryFalseNeverResent, Scenario(), strategies)
}

// AuthRefreshAtMostOnce is property.AuthRefreshAtMostOnce over generated
// scripts.
func AuthRefreshAtMostOnce(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.AuthRefreshAtMostOnce, Scenario(), strategies)
}

// BackgroundNeverRetriesOverload is property.BackgroundNeverRetriesOverload
// over generated scripts.
func BackgroundNeverRetriesOverload(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.BackgroundNeverRetriesOverload, Scenario(), strategies)
}

// NoAttemptExceedsWindowAfterOverflow is
// property.NoAttemptExceedsWindowAfterOverflow over generated scripts.
func NoAttemptExceedsWindowAfterOverflow(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.NoAttemptExceedsWindowAfterOverflow, Scenario(), strategies)
}

// MaxTokensWithinOutputLimit is property.MaxTokensWithinOutputLimit over
// generated scripts.
func MaxTokensWithinOutputLimit(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.MaxTokensWithinOutputLimit, Scenario(), strategies)
}

// StuckLoopEndsWithinStepCap is property.StuckLoopEndsWithinStepCap over
// generated tool scripts.
func StuckLoopEndsWithinStepCap(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.StuckLoopEndsWithinStepCap, ToolScenario(), strategies)
}

// costScenario draws a lone turn or an agent turn: each may cache its
// prompt and have a price.
func costScenario() *rapid.Generator[*scenario.Scenario] {
	return rapid.OneOf(Scenario(), ToolScenario())
}

// BilledWithinCachedFigures is property.BilledWithinCachedFigures over
// generated scripts and tool scripts.
func BilledWithinCachedFigures(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.BilledWithinCachedFigures, costScenario(), strategies)
}

// CacheFollowsItsLifetime is property.CacheFollowsItsLifetime over
// generated scripts and tool scripts.
func CacheFollowsItsLifetime(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.CacheFollowsItsLifetime, costScenario(), strategies)
}

// LoopGuardWarnsFirst is property.LoopGuardWarnsFirst over generated tool
// scripts. It is opt-in: not in Default, so Check leaves it out; run it
// by name (rapid.Check(t, proptest.LoopGuardWarnsFirst(mine))).
func LoopGuardWarnsFirst(strategies ...recovery.Strategy) func(*rapid.T) {
	return perRun(property.LoopGuardWarnsFirst, ToolScenario(), strategies)
}
