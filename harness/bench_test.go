package harness_test

import (
	"context"
	"testing"
	"time"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// BenchmarkDefaultSuite runs the default suite with blind and classify and
// reports the virtual time waited against the wall time it took:
// virtual-s/wall-s is how much faster than real time faultbench runs.
func BenchmarkDefaultSuite(b *testing.B) {
	scs, err := scenario.Load("../scenarios")
	if err != nil {
		b.Fatal(err)
	}
	var waited time.Duration
	var wall time.Duration
	for b.Loop() {
		start := time.Now()
		rep, err := harness.Run(context.Background(), scs, recovery.Presets(), harness.Options{Seed: 1})
		wall += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rep.Results {
			waited += time.Duration(r.WaitMS) * time.Millisecond
		}
	}
	b.ReportMetric(waited.Seconds()/float64(b.N), "virtual-s/op")
	b.ReportMetric(waited.Seconds()/wall.Seconds(), "virtual-s/wall-s")
}
