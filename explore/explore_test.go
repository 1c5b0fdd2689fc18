package explore

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/proptest/property"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

func preset(t testing.TB, name string) recovery.Strategy {
	t.Helper()
	s, ok := recovery.Preset(name)
	if !ok {
		t.Fatalf("no preset %q", name)
	}
	return s
}

// TestGeneratorReachesEveryFault: over 2,000 scripts the generator makes
// every fault of its vocabulary and every turn shape, and every scenario
// it makes is valid.
func TestGeneratorReachesEveryFault(t *testing.T) {
	seen := map[string]bool{}
	for i := range 2000 {
		sc := Generate(7, i, "gen")
		if err := sc.Validate(); err != nil {
			t.Fatalf("script %d: %v", i, err)
		}
		for _, name := range Reached(sc) {
			seen[name] = true
		}
	}
	for _, name := range append(FaultNames(), TurnShapes()...) {
		if !seen[name] {
			t.Errorf("the generator never made %s", name)
		}
	}
}

// TestGenerateDependsOnSeedAndIndexAlone: script i is the same whatever
// was generated before it, and another seed makes another script.
func TestGenerateDependsOnSeedAndIndexAlone(t *testing.T) {
	a := Marshal(Generate(3, 17, "x"))
	for i := range 17 {
		Generate(3, i, "x")
	}
	if b := Marshal(Generate(3, 17, "x")); !bytes.Equal(a, b) {
		t.Fatal("script 17 changed after other scripts were generated")
	}
	if c := Marshal(Generate(4, 17, "x")); bytes.Equal(a, c) {
		t.Fatal("seeds 3 and 4 made the same script 17")
	}
}

func exploreBlind(t *testing.T, parallel int) (Options, Found) {
	t.Helper()
	classify := preset(t, "classify")
	o := Options{Strategy: preset(t, "blind"), Against: &classify, Objective: ObjectiveVersus, Runs: 40, Seed: 5, Parallel: parallel}
	f, err := Explore(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return o, f
}

// TestBlindAgainstClassifyWritesTheSameBytes: explore blind --against
// classify finds a case, and the same seed writes the same file at any
// parallelism; the file loads, and its expect fails for blind (and holds
// for classify) when run as `faultbench run` runs it.
func TestBlindAgainstClassifyWritesTheSameBytes(t *testing.T) {
	var files [2][]byte
	var path string
	for i, parallel := range []int{1, 3} {
		o, f := exploreBlind(t, parallel)
		if f.Shrunk == nil {
			t.Fatalf("blind against classify: nothing found in %d scripts", f.Ran)
		}
		dir := t.TempDir()
		p, err := Write(dir, Search{Options: o, Found: f})
		if err != nil {
			t.Fatal(err)
		}
		if files[i], err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
		path = p
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatalf("parallel 1 and 3 wrote different files:\n%s\n---\n%s", files[0], files[1])
	}
	sc, err := scenario.LoadFile(path)
	if err != nil {
		t.Fatalf("the written file does not load: %v", err)
	}
	if filepath.Base(path) != sc.Name+".yaml" {
		t.Fatalf("file %s holds scenario %s", path, sc.Name)
	}
	scs := []*scenario.Scenario{sc}
	rep, err := harness.Run(context.Background(), scs, []recovery.Strategy{preset(t, "blind"), preset(t, "classify")}, harness.Options{Seed: RunSeed})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := harness.Check(scs, rep.Results)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("the written expect block holds for blind: it should fail today")
	}
	for _, v := range vs {
		if v.Strategy != "blind" {
			t.Errorf("the expect block fails for %s: %s", v.Strategy, v)
		}
	}
}

// size is a scenario's size as the shrinker reduces it.
func size(sc *scenario.Scenario) int {
	n := len(sc.Script)*1000 + sc.Turn.SystemTokens + sc.Turn.AnswerTokens + len(sc.Turn.Fallback)*1000
	for _, r := range sc.Script {
		n += r.Times + int(r.When.Before.D().Seconds()+r.When.After.D().Seconds())
	}
	for _, g := range sc.Turn.Messages {
		n += g.Count + g.Tokens
	}
	return n
}

// TestShrinkKeepsTheObjectiveAndReduces: the shrunk case still holds,
// keeps KeepScore of the worst case's score, and is smaller.
func TestShrinkKeepsTheObjectiveAndReduces(t *testing.T) {
	computeOnly(t)
	_, f := exploreBlind(t, 2)
	if f.Worst == nil || f.Shrunk == nil {
		t.Fatal("nothing found")
	}
	if !f.Shrunk.Holds || f.Shrunk.Score < KeepScore*f.Worst.Score {
		t.Fatalf("the shrunk case lost the objective: holds %v, score %.2f of %.2f", f.Shrunk.Holds, f.Shrunk.Score, f.Worst.Score)
	}
	if size(f.Shrunk.Scenario) >= size(f.Worst.Scenario) || f.Tried == 0 {
		t.Fatalf("the shrunk case is no smaller: %d of %d after %d tries", size(f.Shrunk.Scenario), size(f.Worst.Scenario), f.Tried)
	}
}

// TestKeepsRefusesALostObjective pins the shrinker's acceptance rule.
func TestKeepsRefusesALostObjective(t *testing.T) {
	found := Case{Holds: true, Score: 4}
	for _, tc := range []struct {
		got  Case
		want bool
	}{
		{Case{Holds: true, Score: 4}, true},
		{Case{Holds: true, Score: 2}, true},
		{Case{Holds: true, Score: 1.9}, false},
		{Case{Holds: false, Score: 9}, false},
	} {
		if got := keeps(found, tc.got); got != tc.want {
			t.Errorf("keeps(%+v) = %v, want %v", tc.got, got, tc.want)
		}
	}
	v := Case{Holds: true, Broken: []Broken{{Property: "A"}}}
	if keeps(v, Case{Holds: true, Broken: []Broken{{Property: "B"}}}) {
		t.Error("a candidate breaking another property kept the objective")
	}
}

// TestViolationFindsABrokenProperty: blind (classify: false) resends
// permanent errors; explore's violation objective finds one.
func TestViolationFindsABrokenProperty(t *testing.T) {
	computeOnly(t)
	f, err := Explore(context.Background(), Options{Strategy: preset(t, "blind"), Runs: 40, Seed: 2, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if f.Shrunk == nil || len(f.Shrunk.Broken) == 0 {
		t.Fatal("no property broken by blind in 40 scripts")
	}
	if !slices.ContainsFunc(property.Default(), func(p property.Property) bool {
		return p.Name == f.Shrunk.Broken[0].Property
	}) && f.Shrunk.Broken[0].Property != "LedgerEqualsJournal" {
		t.Fatalf("unknown property %s", f.Shrunk.Broken[0].Property)
	}
}

// TestStopBeforeTheFirstScriptRunsNone: a closed Stop starts no script,
// and the search reports none run and nothing found.
func TestStopBeforeTheFirstScriptRunsNone(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	f, err := Explore(context.Background(), Options{Strategy: preset(t, "blind"), Runs: 50, Seed: 1, Stop: stop})
	if err != nil || f.Ran != 0 || f.Worst != nil {
		t.Fatalf("ran %d, worst %v, err %v", f.Ran, f.Worst, err)
	}
}

// TestRegretAndOutcomeFindCases: classify costs more than hindsight on
// some script, and blind fails where classify succeeds on some other; the
// written files say so.
func TestRegretAndOutcomeFindCases(t *testing.T) {
	computeOnly(t)
	classify := preset(t, "classify")
	for _, o := range []Options{
		{Strategy: classify, Objective: ObjectiveRegret, Runs: 6, Seed: 1, Parallel: 2, ShrinkBound: 1},
		{Strategy: preset(t, "blind"), Against: &classify, Objective: ObjectiveOutcome, Runs: 30, Seed: 1, Parallel: 2, ShrinkBound: 20},
	} {
		f, err := Explore(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if f.Shrunk == nil || !f.Shrunk.Holds || f.Shrunk.Reference == nil {
			t.Fatalf("%s: nothing found in %d scripts", o.Objective, f.Ran)
		}
		ref, got := CostOf(*f.Shrunk.Reference), CostOf(f.Shrunk.Result)
		if got.Compare(ref) <= 0 {
			t.Fatalf("%s: %v is no dearer than the reference's %v", o.Objective, got, ref)
		}
		if o.Objective == ObjectiveOutcome && (got.Success || !ref.Success) {
			t.Fatalf("outcome: %v against %v", got, ref)
		}
		path, err := Write(t.TempDir(), Search{Options: o, Found: f})
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		if o.Objective == ObjectiveRegret && !bytes.Contains(data, []byte("Hindsight (")) {
			t.Errorf("regret: the description names no hindsight plan:\n%s", data)
		}
	}
}
