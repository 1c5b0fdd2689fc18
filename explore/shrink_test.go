package explore

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/faultbench/faultbench/harness"
)

var update = flag.Bool("update", false, "rewrite explore's golden files")

// TestShrinkEndsAtALocalMinimum: the shrinker stops only where no
// one-step simplification of its result keeps the objective, within its
// bound — every candidate smaller() lists for the shrunk case is run and
// must lose the objective. (A shrinker that took each pass's candidates
// from the case it started from stopped one step down and spent its
// whole bound.)
func TestShrinkEndsAtALocalMinimum(t *testing.T) {
	computeOnly(t)
	o, f := exploreBlind(t, 2)
	if f.Worst == nil || f.Shrunk == nil {
		t.Fatal("nothing found")
	}
	if f.Tried >= DefaultShrinkBound {
		t.Fatalf("the shrinker spent its whole bound (%d tries): it should reach a local minimum well within it", f.Tried)
	}
	x := &explorer{opts: o, name: baseName(o)}
	x.opts.HindsightBound = ExploreBound
	b, err := harness.NewBench(RunSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i, cand := range smaller(f.Shrunk.Scenario) {
		if cand.Validate() != nil {
			continue
		}
		got, err := x.try(context.Background(), b, cand, f.Shrunk.Index)
		if err != nil {
			t.Fatal(err)
		}
		if keeps(*f.Worst, got) {
			t.Errorf("candidate %d of the shrunk case still keeps the objective (score %.2f of %.2f): the shrinker stopped early",
				i, got.Score, f.Worst.Score)
		}
	}
}

// TestShrinkGolden pins what `faultbench explore --strategy blind
// --against classify --runs 40 --seed 5` writes: the shrunk scenario's
// bytes. Rewrite with `go test ./explore/ -run ShrinkGolden -update`
// after a change that is meant to move it.
func TestShrinkGolden(t *testing.T) {
	computeOnly(t)
	o, f := exploreBlind(t, 2)
	written, err := Write(t.TempDir(), Search{Options: o, Found: f})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(written)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "blind-vs-classify-seed5.yaml")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (rewrite with -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("explore's shrunk scenario for seed 5 moved (%d tries); rewrite with -update if meant:\n--- got\n%s\n--- want\n%s", f.Tried, got, want)
	}
}
