package proptest_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/proptest"
	"github.com/faultbench/faultbench/recovery"
)

// mine is a user's own strategy, as the README's quickstart
// (quickstart_test.go) writes it: classify with more patience.
func mine() recovery.Strategy {
	s := recovery.Classifying()
	s.Name = "mine"
	s.Attempts = 8
	return s
}

// TestMyStrategyNeverSleepsAfterTheLastAttempt picks one property.
// An opt-in property (LoopGuardWarnsFirst) is picked the same way.
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
	// BilledWithinCachedFigures
	// CacheFollowsItsLifetime
	// LoopGuardWarnsFirst
	// AdmitsWithinQuota
	// SameSeedSameFleet
	// RetriesWithinBudget
	// LimiterReleasesIntoRoom
	// HalfOpenLetsOneProbe
}
