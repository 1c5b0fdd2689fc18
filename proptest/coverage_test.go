package proptest_test

import (
	"flag"
	"testing"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/proptest"
	"github.com/faultbench/faultbench/recovery"
)

// scenarioPaths are what the generated scenarios must lead the presets
// through, told by their records.
var scenarioPaths = map[string]func(r ledger.Result) bool{
	"max_tokens adjustment": func(r ledger.Result) bool { return r.Adjustments > 0 },
	"compaction":            func(r ledger.Result) bool { return r.Compactions > 0 },
	"fallback":              func(r ledger.Result) bool { return r.Fallbacks > 0 },
	"escalation":            func(r ledger.Result) bool { return r.Escalations > 0 },
	"connection fault":      func(r ledger.Result) bool { return anyAttempt(r, func(a ledger.Attempt) bool { return a.Status == 0 }) },
	"broken answer": func(r ledger.Result) bool {
		return anyAttempt(r, func(a ledger.Attempt) bool { return a.Status == 200 && a.Kind != "ok" && a.Kind != "truncated" })
	},
	"overflow": func(r ledger.Result) bool {
		return anyAttempt(r, func(a ledger.Attempt) bool { return a.Kind == "context_overflow" })
	},
}

func anyAttempt(r ledger.Result, f func(ledger.Attempt) bool) bool {
	for _, a := range r.AttemptsLog {
		if f(a) {
			return true
		}
	}
	return false
}

// TestScenariosReachEveryRepair fails when the property suite's scenario
// generator, at CI's depth (100 checks, from a fixed seed), leads no
// preset through one of scenarioPaths.
func TestScenariosReachEveryRepair(t *testing.T) {
	computeOnly(t)
	for name, v := range map[string]string{"rapid.checks": "100", "rapid.seed": "1", "rapid.nofailfile": "true"} {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = flag.Set(name, old) })
	}
	seen := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		rep := proptest.Run(t, proptest.Scenario().Draw(t, "scenario"), recovery.Presets()...)
		for _, r := range rep.Results {
			for name, took := range scenarioPaths {
				if took(r) {
					seen[name]++
				}
			}
		}
	})
	for name := range scenarioPaths {
		if seen[name] == 0 {
			t.Errorf("100 generated scenarios never led a preset through: %s", name)
		}
	}
	t.Logf("runs per path: %v", seen)
}
