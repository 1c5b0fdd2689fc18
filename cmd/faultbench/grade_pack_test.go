package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
)

// overflows are the pack's context-overflow scenarios, one per wire.
var overflows = []string{"context-overflow", "context-overflow-openai", "context-overflow-gemini"}

// TestGradePackIsRightAboutItsBestOutcome runs the presets over the
// built-in pack: classify reaches the best outcome in every scenario
// where a preset succeeds (elsewhere the best is the cheapest stop, a
// matter of how long a policy persists), and blind, which resends an overflowing request unchanged, in none of
// the overflows — their script keeps refusing it (when.unshrunk).
func TestGradePackIsRightAboutItsBestOutcome(t *testing.T) {
	scs, err := grade.Pack()
	if err != nil {
		t.Fatal(err)
	}
	names := defaultNames()
	if !slices.Contains(names, "blind") {
		names = append(names, "blind")
	}
	strategies, err := strategiesFrom(strings.Join(names, ","))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harness.Run(context.Background(), scs, strategies, harness.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := reports.Verdicts(rep)
	if err != nil {
		t.Fatal(err)
	}
	succeeds := map[string]bool{} // a correct client can succeed there: some preset did
	for _, r := range rep.Results {
		succeeds[r.Scenario] = succeeds[r.Scenario] || r.Outcome == ledger.OutcomeSuccess
	}
	for _, v := range vs {
		if succeeds[v.Scenario] && !slices.Contains(v.Best, "classify") {
			t.Errorf("%s: classify did not reach the best outcome (best: %v)", v.Scenario, v.Best)
		}
		if slices.Contains(overflows, v.Scenario) && slices.Contains(v.Best, "blind") {
			t.Errorf("%s: blind reached the best outcome by resending the overflow unchanged", v.Scenario)
		}
	}
}

// TestGradeRanksABlindResendBelowClassify grades the naive client — it
// retries a 400 at once, the same request, with no jitter — on the
// overflows: it reaches the best outcome in none, classify in all.
func TestGradeRanksABlindResendBelowClassify(t *testing.T) {
	code, out, errOut := gradeWith(t, "naive", "--pack", gradePack(t, overflows...), "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Verdicts []reports.ScenarioVerdict `json:"verdicts"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Verdicts) != len(overflows) {
		t.Fatalf("verdicts: %+v", doc.Verdicts)
	}
	for _, v := range doc.Verdicts {
		if !slices.Contains(v.Best, "classify") || slices.Contains(v.Best, grade.Strategy) {
			t.Errorf("%s: best %v, ranking %v: want classify and not the client", v.Scenario, v.Best, v.Ranking)
		}
		if slices.Index(v.Ranking, grade.Strategy) < slices.Index(v.Ranking, "classify") {
			t.Errorf("%s: the client ranks above classify: %v", v.Scenario, v.Ranking)
		}
	}
}
