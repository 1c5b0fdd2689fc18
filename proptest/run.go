package proptest

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// Run runs strategies on sc over loopback with a drawn seed and returns
// the report. harness.Run reconciles every run with the mock's journal, so
// a disagreement fails t; and a run that returns at all has terminated.
func Run(t *rapid.T, sc *scenario.Scenario, strategies ...recovery.Strategy) ledger.Report {
	rep, err := run(sc, rapid.Uint64().Draw(t, "seed"), 2, strategies)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return rep
}

func run(sc *scenario.Scenario, seed uint64, parallel int, strategies []recovery.Strategy) (ledger.Report, error) {
	return harness.Run(context.Background(), []*scenario.Scenario{sc}, strategies, harness.Options{Seed: seed, Parallel: parallel})
}

func byName(strategies []recovery.Strategy) map[string]recovery.Strategy {
	m := make(map[string]recovery.Strategy, len(strategies))
	for _, s := range strategies {
		m[s.Name] = s
	}
	return m
}

// Property is one named invariant of docs/properties.md.
type Property struct {
	Name  string
	Check func(strategies ...recovery.Strategy) func(*rapid.T)
	// OptIn marks a property documented sources disagree on
	// (LoopGuardWarnsFirst): Default and Check leave it out; run it by
	// name.
	OptIn bool
}

// All lists every property, in the order docs/properties.md gives, the
// opt-in ones included.
func All() []Property {
	return []Property{
		{"SameSeedSameLedger", SameSeedSameLedger, false},
		{"LedgerEqualsJournal", LedgerEqualsJournal, false},
		{"NeverResendsAfterPermanentError", NeverResendsAfterPermanentError, false},
		{"NoSleepAfterFinalAttempt", NoSleepAfterFinalAttempt, false},
		{"WaitsWithinBounds", WaitsWithinBounds, false},
		{"ShouldRetryFalseNeverResent", ShouldRetryFalseNeverResent, false},
		{"AuthRefreshAtMostOnce", AuthRefreshAtMostOnce, false},
		{"BackgroundNeverRetriesOverload", BackgroundNeverRetriesOverload, false},
		{"NoAttemptExceedsWindowAfterOverflow", NoAttemptExceedsWindowAfterOverflow, false},
		{"MaxTokensWithinOutputLimit", MaxTokensWithinOutputLimit, false},
		{"StuckLoopEndsWithinStepCap", StuckLoopEndsWithinStepCap, false},
		{"BilledWithinCachedFigures", BilledWithinCachedFigures, false},
		{"CacheFollowsItsLifetime", CacheFollowsItsLifetime, false},
		{"LoopGuardWarnsFirst", LoopGuardWarnsFirst, true},
		{"AdmitsWithinQuota", AdmitsWithinQuota, false},
		{"SameSeedSameFleet", SameSeedSameFleet, false},
		{"RetriesWithinBudget", RetriesWithinBudget, false},
		{"LimiterReleasesIntoRoom", LimiterReleasesIntoRoom, false},
		{"HalfOpenLetsOneProbe", HalfOpenLetsOneProbe, false},
	}
}

// Default lists the default suite: every property but the opt-in ones.
// The recommended presets (classify, classify-preflight, classify-fleet)
// keep all of it.
func Default() []Property {
	return slices.DeleteFunc(All(), func(p Property) bool { return p.OptIn })
}

// Check runs the default suite (Default) against strategies, each
// property as a subtest of t. A property holds for every strategy handed
// to it or fails, naming the setting that breaks it (sleep_after_final:
// true, should_retry: ignore, a retry list that names a permanent kind,
// ...): none is left out. An opt-in property runs by name:
// rapid.Check(t, proptest.LoopGuardWarnsFirst(mine)).
func Check(t *testing.T, strategies ...recovery.Strategy) {
	t.Helper()
	for _, p := range Default() {
		t.Run(p.Name, func(t *testing.T) { rapid.Check(t, p.Check(strategies...)) })
	}
}

// SameSeedSameLedger: the same seed gives byte-identical JSON, whatever
// the parallelism.
func SameSeedSameLedger(strategies ...recovery.Strategy) func(*rapid.T) {
	return func(t *rapid.T) {
		sameBytes(t, Scenario().Draw(t, "scenario"), strategies, 1, 3)
	}
}

// sameBytes fails t unless sc run with a drawn seed gives the same JSON at
// each parallelism.
func sameBytes(t *rapid.T, sc *scenario.Scenario, strategies []recovery.Strategy, parallels ...int) {
	seed := rapid.Uint64().Draw(t, "seed")
	var first []byte
	for i, parallel := range parallels {
		rep, err := run(sc, seed, parallel, strategies)
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		// The ledger's own JSON: every figure the report writes is a
		// field of it.
		data, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = data
		} else if !bytes.Equal(first, data) {
			t.Fatalf("same seed, different JSON at --parallel %d and %d:\n%s\n---\n%s", parallels[0], parallel, first, data)
		}
	}
}
