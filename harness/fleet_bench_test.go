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

// BenchmarkWorkload runs long-fleet-1000 (scenarios-large/long-fleet-1000.yaml: answers
// of 300 tokens at first_token 400ms and 80 tokens/s, about 4 s each, on
// a key of 300 requests a minute) as a fleet of 1,000 and 10,000 turns at
// concurrency 100, with classify: "bucket" as the scenario says, and
// "unlimited" without its limits, where every turn is one attempt, so that
// the growth from 1,000 to 10,000 turns is the harness's alone (with the
// bucket, a longer fleet spends more of its turns queueing on 429s and
// makes more requests per turn).
//
// It reports the makespan on the virtual clock against the wall time
// (makespan-s/wall-s) and against the processor time (makespan-s/cpu-s:
// what a run costs whatever else the machine runs), the wall time per
// turn, the wall and processor time per attempt (one HTTP request), the
// attempts per turn, and the process's peak resident memory: run one
// size alone (-bench 'Workload/bucket/turns=10000$') for a peak that is
// that size's own.
func BenchmarkWorkload(b *testing.B) {
	data, err := os.ReadFile("../scenarios-large/long-fleet-1000.yaml")
	if err != nil {
		b.Fatal(err)
	}
	classify, _ := recovery.Preset("classify")
	for _, limits := range []string{"bucket", "unlimited"} {
		for _, turns := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/turns=%d", limits, turns), func(b *testing.B) {
				benchWorkload(b, data, limits == "bucket", turns, classify)
			})
		}
	}
}

func benchWorkload(b *testing.B, data []byte, bucket bool, turns int, classify recovery.Strategy) {
	sc, err := scenario.Parse("long-fleet-1000.yaml", data)
	if err != nil {
		b.Fatal(err)
	}
	sc.Workload.Turns, sc.Workload.Concurrency = turns, 100
	if !bucket {
		m := sc.Models["primary"]
		m.Limits = scenario.RateLimits{}
		sc.Models["primary"] = m
	}
	var makespan, wall, cpu time.Duration
	attempts := 0
	for b.Loop() {
		start := time.Now()
		cpu0, _ := cpuTime()
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{sc}, []recovery.Strategy{classify}, harness.Options{Seed: 1})
		wall += time.Since(start)
		cpu1, _ := cpuTime()
		cpu += cpu1 - cpu0
		if err != nil {
			b.Fatal(err)
		}
		makespan += time.Duration(rep.Results[0].Workload.MakespanMS) * time.Millisecond
		attempts += rep.Results[0].Workload.Attempts
	}
	b.ReportMetric(makespan.Seconds()/wall.Seconds(), "makespan-s/wall-s")
	b.ReportMetric(float64(wall.Microseconds())/float64(b.N*turns), "wall-µs/turn")
	b.ReportMetric(float64(wall.Microseconds())/float64(attempts), "wall-µs/attempt")
	b.ReportMetric(float64(attempts)/float64(b.N*turns), "attempts/turn")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(attempts), "cpu-µs/attempt")
		b.ReportMetric(makespan.Seconds()/cpu.Seconds(), "makespan-s/cpu-s")
	}
	if rss, ok := peakRSS(); ok {
		b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
	}
}
