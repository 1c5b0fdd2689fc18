package proptest_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/proptest"
	"github.com/faultbench/faultbench/recovery"
)

// mine is a user's own strategy: classify with more patience, and a
// warning before the no-progress detector breaks (classify breaks at once).
func mine() recovery.Strategy {
	s := recovery.Classifying()
	s.Name = "mine"
	s.Attempts = 8
	s.Backoff.Jitter = recovery.JitterFull
	s.LoopGuard.NoProgressBreak = 3
	return s
}

// TestMyStrategy is what a user writes to gate their CI: every property at
// once, each a subtest.
func TestMyStrategy(t *testing.T) {
	proptest.Check(t, mine())
}

// TestMyStrategyNeverSleepsAfterTheLastAttempt picks one property.
func TestMyStrategyNeverSleepsAfterTheLastAttempt(t *testing.T) {
	rapid.Check(t, proptest.NoSleepAfterFinalAttempt(mine()))
}

// The properties a user's strategy is held to.
func ExampleAll() {
	for _, p := range proptest.All() {
		fmt.Println(p.Name)
	}
	// Output:
	// SameSeedSameLedger
	// LedgerEqualsJournal
	// NeverResendsAfterPermanentError
	// NoSleepAfterFinalAttempt
	// WaitsWithinBounds
	// ShouldRetryFalseNeverResent
	// AuthRefreshAtMostOnce
	// BackgroundNeverRetriesOverload
	// NoAttemptExceedsWindowAfterOverflow
	// MaxTokensWithinOutputLimit
	// StuckLoopEndsWithinStepCap
	// LoopGuardWarnsFirst
	// AdmitsWithinQuota
	// SameSeedSameFleet
	// RetriesWithinBudget
	// LimiterReleasesIntoRoom
	// HalfOpenLetsOneProbe
}
