package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/reports"
)

// TestGradeRanksTheMisbehavingClientBelowClassify grades the naive
// client — it retries a 400 and a 500 that x-should-retry forbids, at
// once with no jitter, and resends an overflowing request unchanged —
// over the built-in pack (but hang, which it would wait out to the
// timeout): it reaches the best outcome in fewer scenarios than classify,
// and ranks above classify in no scenario whose card FAILs it.
func TestGradeRanksTheMisbehavingClientBelowClassify(t *testing.T) {
	scs, err := grade.Pack()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sc := range scs {
		if sc.Name != "hang" {
			names = append(names, sc.Name)
		}
	}
	code, out, errOut := gradeWith(t, "naive", "--pack", gradePack(t, names...), "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Verdicts []reports.ScenarioVerdict          `json:"verdicts"`
		Grade    struct{ Findings []grade.Finding } `json:"grade"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Verdicts) != len(names) {
		t.Fatalf("%d verdicts for %d scenarios", len(doc.Verdicts), len(names))
	}
	failed := map[string]bool{}
	for _, f := range doc.Grade.Findings {
		failed[f.Scenario] = failed[f.Scenario] || f.Status == grade.Fail
	}
	client, classify := 0, 0
	for _, v := range doc.Verdicts {
		if slices.Contains(v.Best, grade.Strategy) {
			client++
		}
		if slices.Contains(v.Best, "classify") {
			classify++
		}
		if failed[v.Scenario] && slices.Index(v.Ranking, grade.Strategy) < slices.Index(v.Ranking, "classify") {
			t.Errorf("%s: the card FAILs the client, yet it ranks above classify: %v", v.Scenario, v.Ranking)
		}
	}
	if client >= classify {
		t.Errorf("the client reached the best outcome in %d scenarios, classify in %d: want fewer", client, classify)
	}
	t.Logf("best outcome: client %d, classify %d of %d scenarios", client, classify, len(names))
}
