package explore

import (
	"context"
	"testing"
	"time"

	"github.com/faultbench/faultbench/harness"
)

// BenchmarkExploreClassify explores 10,000 generated scripts for classify
// (objective violation: one run per script) and reports scripts per
// second of wall time. Run it once: -bench ExploreClassify -benchtime 1x.
func BenchmarkExploreClassify(b *testing.B) {
	s := preset(b, "classify")
	for b.Loop() {
		start := time.Now()
		f, err := Explore(context.Background(), Options{Strategy: s, Runs: 10000, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(f.Ran)/time.Since(start).Seconds(), "scripts/s")
		b.ReportMetric(float64(f.Held), "violations")
	}
}

// BenchmarkShrink shrinks the worst case of blind against classify over
// 200 scripts, and reports the candidates tried.
func BenchmarkShrink(b *testing.B) {
	classify := preset(b, "classify")
	o := Options{Strategy: preset(b, "blind"), Against: &classify, Objective: ObjectiveVersus, Runs: 200, Seed: 1}
	f, err := Explore(context.Background(), o)
	if err != nil || f.Worst == nil {
		b.Fatal("nothing to shrink", err)
	}
	bench, err := harness.NewBench(RunSeed)
	if err != nil {
		b.Fatal(err)
	}
	defer bench.Close()
	x := &explorer{opts: o}
	tried := 0
	for b.Loop() {
		_, n, err := x.shrink(context.Background(), bench, *f.Worst)
		if err != nil {
			b.Fatal(err)
		}
		tried = n
	}
	b.ReportMetric(float64(tried), "candidates")
}

// BenchmarkHindsight computes hindsight for each plain turn of the
// default suite, one sub-benchmark each, with the plans it played.
func BenchmarkHindsight(b *testing.B) {
	bench, err := harness.NewBench(RunSeed)
	if err != nil {
		b.Fatal(err)
	}
	defer bench.Close()
	for _, sc := range defaultSuite(b) {
		b.Run(sc.Name, func(b *testing.B) {
			if err := bench.Add(sc); err != nil {
				b.Fatal(err)
			}
			defer bench.Remove(sc.Name)
			plays := 0
			for b.Loop() {
				h, err := Hindsight(context.Background(), bench, sc, DefaultBound)
				if err != nil {
					b.Fatal(err)
				}
				plays = h.Plays
			}
			b.ReportMetric(float64(plays), "plays")
		})
	}
}
