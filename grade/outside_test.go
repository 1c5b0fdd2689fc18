package grade

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// The edges the outside mutants of docs/mutation.md ("From outside")
// crossed unseen: each test sits on the boundary its mutant moves.

// gapRuns are runs of a persistent overload that name check, each with
// these gaps after failures, and the host's noise.
func gapRuns(check string, noise time.Duration, runs ...[]int64) []Run {
	out := make([]Run, len(runs))
	for i, gaps := range runs {
		sc := &scenario.Scenario{Name: "edge", Grade: []string{check}, Script: []scenario.Rule{{Respond: scenario.Respond{Status: 529}}}}
		es := []mockllm.Entry{{N: 1, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1}}
		for k, g := range gaps {
			es = append(es, mockllm.Entry{N: k + 2, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1, GapMS: g})
		}
		out[i] = Run{Scenario: sc, Entries: es, Exit: 1, Noise: noise}
	}
	return out
}

// verdictOf is the one verdict check gives every run of runs.
func verdictOf(t *testing.T, check string, runs []Run) Finding {
	t.Helper()
	var fs []Finding
	for _, f := range Judge(runs, Bounds{Attempts: 10, Time: time.Minute}) {
		if f.Check == check {
			fs = append(fs, f)
		}
	}
	if len(fs) != len(runs) {
		t.Fatalf("%s: %d findings for %d runs", check, len(fs), len(runs))
	}
	return fs[0]
}

func TestOutsideNoiseRoundsUp(t *testing.T) {
	for _, c := range []struct {
		late []time.Duration
		want time.Duration
	}{
		{[]time.Duration{time.Nanosecond}, time.Millisecond},
		{[]time.Duration{time.Millisecond}, time.Millisecond},
		{[]time.Duration{time.Millisecond + time.Nanosecond}, 2 * time.Millisecond},
		{[]time.Duration{129*time.Millisecond + 1}, 130 * time.Millisecond},
	} {
		if got := noiseOf(c.late); got != c.want {
			t.Errorf("noiseOf(%v) = %v, want %v: a noise rounded down is a margin too narrow", c.late, got, c.want)
		}
	}
}

func TestOutsideFailureGapsKeepTheAnswer(t *testing.T) {
	sc := &scenario.Scenario{Name: "edge", Script: []scenario.Rule{{Respond: scenario.Respond{Status: 529}}}}
	r := Run{Scenario: sc, Entries: []mockllm.Entry{
		{N: 1, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1},
		{N: 2, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1, GapMS: 500},
		{N: 3, Model: "primary", Status: 200, Kind: "ok", Rule: 1, GapMS: 1000},      // the wait before the answer is a wait after a failure
		{N: 4, Model: "primary", Status: 200, Kind: "ok", Rule: 1, GapMS: 3000},      // after an answer: no wait of the retry policy
		{N: 5, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1, GapMS: 1}, // after an answer again
	}}
	if got, want := failureGaps(r), []int64{500, 1000}; !slices.Equal(got, want) {
		t.Errorf("failureGaps = %v, want %v", got, want)
	}
}

func TestOutsideTypicalGapIsTheLowerMiddle(t *testing.T) {
	for _, c := range []struct {
		xs   []int64
		want int64
	}{
		{[]int64{7}, 7},
		{[]int64{90, 10}, 10},
		{[]int64{10, 50, 90}, 50},
		{[]int64{200, 30, 200, 30}, 30},
	} {
		if got := lowerMedian(c.xs); got != c.want {
			t.Errorf("lowerMedian(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
	// On the verdict: half the gaps at once, half a little over, is a
	// client that retries at once (the upper middle would call it unsure).
	f := verdictOf(t, "backoff", gapRuns("backoff", 0, []int64{40, 60}, []int64{40, 60}))
	if f.Status != Fail || !strings.Contains(f.Evidence, "retried at once") {
		t.Errorf("backoff over gaps 40, 60 / 40, 60: %s %q, want FAIL retried at once", f.Status, f.Evidence)
	}
}

func TestOutsideWindowOfALaterRule(t *testing.T) {
	// Rule 1 (no window) answered the client's first request, at 3 s;
	// rule 2's window, the first 2 s, had closed by then: that rule's
	// fault was missed, whatever rule 1 answered.
	sc := &scenario.Scenario{Name: "window", Grade: []string{"retry-after"}, Script: []scenario.Rule{
		{When: scenario.When{Model: "backup"}, Respond: scenario.Respond{OK: true}},
		{When: scenario.When{Before: scenario.Duration(2 * time.Second)}, Respond: scenario.Respond{Status: 429}},
		{Respond: scenario.Respond{OK: true}},
	}}
	r := Run{Scenario: sc, Startup: 3 * time.Second, Entries: []mockllm.Entry{
		{N: 1, Model: "backup", Status: 200, Kind: "ok", Rule: 1, TimeMS: 3000},
		{N: 2, Model: "primary", Status: 200, Kind: "ok", Rule: 3, GapMS: 100, TimeMS: 3100},
	}}
	why, missed := r.missedWindow()
	if !missed || !strings.Contains(why, "first request at 3 s") || !strings.Contains(why, "its first 2 s, had closed") {
		t.Errorf("missedWindow = %q, %v: rule 2's window was missed", why, missed)
	}
	// The same run inside the window: rule 2 answered, nothing missed.
	r.Entries = []mockllm.Entry{
		{N: 1, Model: "backup", Status: 200, Kind: "ok", Rule: 1, TimeMS: 1999},
		{N: 2, Model: "primary", Status: 429, Kind: "rate_limit", Rule: 2, GapMS: 0, TimeMS: 1999},
		{N: 3, Model: "primary", Status: 200, Kind: "ok", Rule: 3, GapMS: 100, TimeMS: 2099},
	}
	if why, missed := r.missedWindow(); missed {
		t.Errorf("missedWindow = %q inside the window", why)
	}
}

func TestOutsideResendWithoutMaxTokens(t *testing.T) {
	// An OpenAI request that leaves max_tokens out asks for the model's
	// limit, 4096 here: after an overflow at max_tokens 4096 that is the
	// same request; after one at 4097 it is a shrink.
	run := func(first int) Run {
		sc := &scenario.Scenario{Name: "overflow", Grade: []string{"overflow"},
			Turn:   scenario.Turn{Model: "primary"},
			Models: map[string]scenario.Model{"primary": {ContextWindow: 8192, MaxOutput: 4096}},
			Script: []scenario.Rule{{Respond: scenario.Respond{Status: 400}}}}
		return Run{Scenario: sc, Exit: 1, Entries: []mockllm.Entry{
			{N: 1, Model: "primary", Status: 400, Kind: "context_overflow", Rule: 1, MaxTokens: first, InputTokens: 5000},
			{N: 2, Model: "primary", Status: 400, Kind: "context_overflow", Rule: 1, MaxTokens: 0, InputTokens: 5000, GapMS: 100},
		}}
	}
	if st, ev := shrinks(run(4096), Bounds{}); st != Fail {
		t.Errorf("max_tokens 4096 then none: %s %q, want FAIL (the limit is 4096)", st, ev)
	}
	if st, ev := shrinks(run(4097), Bounds{}); st != Pass {
		t.Errorf("max_tokens 4097 then none: %s %q, want PASS (the limit, 4096, is less)", st, ev)
	}
}

func TestOutsideFlatWaitsNeedThreeInARun(t *testing.T) {
	// A flat 1 s wait, no noise: with three gaps in a run a flat schedule
	// shows (one gap may be dropped as a hiccup, two remain); with two in
	// each run, dropping one leaves nothing to compare.
	three := verdictOf(t, "backoff", gapRuns("backoff", 0, []int64{1000, 1000, 1000}, []int64{1000, 1000}))
	if three.Status != Fail {
		t.Errorf("flat over 1 s, runs of 3 and 2 gaps: %s %q, want FAIL", three.Status, three.Evidence)
	}
	two := verdictOf(t, "backoff", gapRuns("backoff", 0, []int64{1000, 1000}, []int64{1000, 1000}, []int64{1000, 1000}))
	if two.Status != Inconclusive {
		t.Errorf("flat over 1 s, three runs of 2 gaps: %s %q, want INCONCLUSIVE", two.Status, two.Evidence)
	}
}

func TestOutsideUnderNoiseNeedsSixGapsAndThreeInARun(t *testing.T) {
	// Gaps of 60 ms with no noise (a 20 ms margin): past a retry at once
	// (50 ms), not past the noise (70 ms). "Never waited past the noise"
	// needs six gaps and three in one run, both.
	for _, c := range []struct {
		name string
		runs [][]int64
		fail bool
	}{
		{"two runs of three", [][]int64{{60, 60, 60}, {60, 60, 60}}, true},
		{"one run of three", [][]int64{{60, 60, 60}}, false},
		{"one run of five", [][]int64{{60, 60, 60, 60, 60}}, false},
		{"three runs of two", [][]int64{{60, 60}, {60, 60}, {60, 60}}, false},
		{"two runs of three, one gap at 71 ms", [][]int64{{60, 71, 60}, {60, 60, 60}}, true},
	} {
		for _, check := range []string{"jitter", "backoff"} {
			f := verdictOf(t, check, gapRuns(check, 0, c.runs...))
			got := f.Status == Fail && strings.Contains(f.Evidence, "never waited past the host's noise")
			if got != c.fail {
				t.Errorf("%s, %s: %s %q; want the noise FAIL: %v", check, c.name, f.Status, f.Evidence, c.fail)
			}
		}
	}
}
