package harness_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// The harness benchmarks run whole scenarios over real loopback HTTP, the
// mock, the SDK transport and the engine included. docs/performance.md
// says what each measures and how to compare two commits.

// benchSuite runs scs with strategies once per iteration and reports the
// virtual time waited against the wall time it took: virtual-s/wall-s is
// how much faster than real time faultbench runs.
func benchSuite(b *testing.B, scs []*scenario.Scenario, strategies []recovery.Strategy) {
	b.Helper()
	var waited, wall time.Duration
	for b.Loop() {
		start := time.Now()
		rep, err := harness.Run(context.Background(), scs, strategies, harness.Options{Seed: 1})
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

func defaultSuite(b *testing.B) []*scenario.Scenario {
	b.Helper()
	scs, err := scenario.Load("../scenarios")
	if err != nil {
		b.Fatal(err)
	}
	return scs
}

// BenchmarkDefaultSuite runs the default suite with every built-in preset,
// as `faultbench run scenarios/` does.
func BenchmarkDefaultSuite(b *testing.B) {
	benchSuite(b, defaultSuite(b), recovery.Presets())
}

// BenchmarkDefaultSuiteBlindClassify runs the default suite with blind and
// classify only.
func BenchmarkDefaultSuiteBlindClassify(b *testing.B) {
	benchSuite(b, defaultSuite(b), []recovery.Strategy{recovery.Blind(), recovery.Classifying()})
}

// agentScenario is an agent turn that never ends on its own: every answer
// asks for the same tool, whose result changes a little each time. The
// context window is large enough for a thousand steps of history.
const agentScenario = `name: agent-long
description: an agent turn that never ends, for the benchmark
models:
  sonnet: {context_window: 10000000, max_output: 64000}
turn:
  model: sonnet
  max_tokens: 4096
  system_tokens: 1000
  messages:
    - {count: 1, tokens: 2000}
  answer_tokens: 50
tools:
  - name: read_file
    result: "2026-11-30T10:00:00Z build started; waiting for the cache"
    vary_result: true
script:
  - respond:
      tool_use: [{name: read_file, input: '{"path": "build.log"}'}]
`

// BenchmarkAgentTurn runs one agent turn of a fixed number of steps with
// blind (no loop guard), its step cap set to the steps: each step resends
// the whole, growing history, so the bytes sent grow with the square of
// the steps; the time per step should grow no faster than the bytes the
// wire must carry. It reports the wall time per step.
func BenchmarkAgentTurn(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "agent-long.yaml")
	if err := os.WriteFile(path, []byte(agentScenario), 0o600); err != nil {
		b.Fatal(err)
	}
	scs, err := scenario.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, steps := range []int{200, 1000} {
		b.Run(fmt.Sprintf("steps=%d", steps), func(b *testing.B) {
			s := recovery.Blind()
			s.StepCap = steps
			for b.Loop() {
				rep, err := harness.Run(context.Background(), scs, []recovery.Strategy{s}, harness.Options{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				if got := rep.Results[0].Steps; got != steps {
					b.Fatalf("%d steps, want %d", got, steps)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(steps)*1e3, "ms/step")
		})
	}
}

// namePattern finds a scenario file's name line.
var namePattern = regexp.MustCompile(`(?m)^name: *(\S+)`)

// manyScenarios writes n scenarios into dir, the default suite's copied
// round robin under new names, and returns dir.
func manyScenarios(b *testing.B, dir string, n int) string {
	b.Helper()
	files, err := filepath.Glob("../scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		b.Fatalf("no scenarios: %v", err)
	}
	for i := range n {
		f := files[i%len(files)]
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		renamed := namePattern.ReplaceAll(data, []byte(fmt.Sprintf("name: ${1}-%04d", i)))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%04d.yaml", i)), renamed, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkScenarios1700 runs 1,700 scenarios (the default suite copied
// fifty times) with blind and classify, loading them included: the scale
// at which memory that grows with the suite would show. Its peak RSS is
// measured on the command line with /usr/bin/time -v (docs/performance.md).
func BenchmarkScenarios1700(b *testing.B) {
	dir := manyScenarios(b, b.TempDir(), 1700)
	strategies := []recovery.Strategy{recovery.Blind(), recovery.Classifying()}
	for b.Loop() {
		scs, err := scenario.Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := harness.Run(context.Background(), scs, strategies, harness.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
