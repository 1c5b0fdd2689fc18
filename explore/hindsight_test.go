package explore

import (
	"context"
	"testing"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// defaultSuite loads the plain turns of the default suite: no agent turn,
// no fleet.
func defaultSuite(t testing.TB) []*scenario.Scenario {
	t.Helper()
	all, err := scenario.Load("../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	var out []*scenario.Scenario
	for _, sc := range all {
		if len(sc.Tools) == 0 && sc.Workload.IsZero() {
			out = append(out, sc)
		}
	}
	return out
}

// TestHindsightCostsNoMoreThanAnyPreset: on every plain turn of the
// default suite, hindsight's plan costs no more, in the declared order,
// than any preset's run; and its row agrees with its cost.
func TestHindsightCostsNoMoreThanAnyPreset(t *testing.T) {
	computeOnly(t)
	scs := defaultSuite(t)
	rep, err := harness.Run(context.Background(), scs, recovery.Presets(), harness.Options{Seed: RunSeed})
	if err != nil {
		t.Fatal(err)
	}
	byScenario := map[string][]ledger.Result{}
	for _, r := range rep.Results {
		byScenario[r.Scenario] = append(byScenario[r.Scenario], r)
	}
	b, err := harness.NewBench(RunSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, sc := range scs {
		if err := b.Add(sc); err != nil {
			t.Fatal(err)
		}
		h, err := Hindsight(context.Background(), b, sc, DefaultBound)
		b.Remove(sc.Name)
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		row := h.Result(sc.Name)
		if got := CostOf(row); got != h.Cost {
			t.Errorf("%s: hindsight's row costs %v, its answer %v", sc.Name, got, h.Cost)
		}
		for _, r := range byScenario[sc.Name] {
			if c := CostOf(r); h.Cost.Compare(c) > 0 {
				t.Errorf("%s: hindsight (%s: %v) costs more than %s (%v)", sc.Name, h.Plan, h.Cost, r.Strategy, c)
			}
		}
		t.Logf("%-32s %-70s %v (%d plays)", sc.Name, h.Plan, h.Cost, h.Plays)
	}
}
