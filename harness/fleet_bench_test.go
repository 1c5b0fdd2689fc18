package harness_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// BenchmarkWorkload runs thundering-herd as a fleet of 1,000 and 10,000
// turns at concurrency 100 on a 600-RPM key, with classify, and reports
// the makespan on the virtual clock against the wall time it took
// (makespan-s/wall-s) and the wall time per turn.
func BenchmarkWorkload(b *testing.B) {
	data, err := os.ReadFile("../scenarios/thundering-herd.yaml")
	if err != nil {
		b.Fatal(err)
	}
	classify, _ := recovery.Preset("classify")
	for _, turns := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			sc, err := scenario.Parse("herd.yaml", data)
			if err != nil {
				b.Fatal(err)
			}
			sc.Workload = scenario.Workload{Turns: turns, Concurrency: 100}
			m := sc.Models["primary"]
			m.Limits.RPM = 600
			sc.Models["primary"] = m
			var makespan, wall time.Duration
			for b.Loop() {
				start := time.Now()
				rep, err := harness.Run(context.Background(), []*scenario.Scenario{sc}, []recovery.Strategy{classify}, harness.Options{Seed: 1})
				wall += time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				makespan += time.Duration(rep.Results[0].Workload.MakespanMS) * time.Millisecond
			}
			b.ReportMetric(makespan.Seconds()/wall.Seconds(), "makespan-s/wall-s")
			b.ReportMetric(float64(wall.Microseconds())/float64(b.N*turns), "wall-µs/turn")
		})
	}
}
