package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

// layersBest is the best outcome each scenario of the layers,
// stream-error and budget checks (grade/testdata/pack, which joins the
// built-in pack once the reference cards of docs/clients.md are measured
// on it) allows a correct client: a spent budget and a persistent
// overload stop; an error inside a stream is answered on the resend,
// which classify sends after output too, throwing the partial answer
// away.
var layersBest = map[string]ledger.Outcome{
	"retry-layers": ledger.OutcomeFailed, "budget-anthropic": ledger.OutcomeFailed,
	"budget-openrouter": ledger.OutcomeFailed, "budget-deepseek": ledger.OutcomeFailed,
	"stream-error-before": ledger.OutcomeSuccess, "stream-error-after": ledger.OutcomeSuccess,
}

// TestGradeLayersScenariosAreRightAboutTheirBestOutcome runs the presets
// over those scenarios, as TestGradePackIsRightAboutItsBestOutcome does
// over the built-in pack.
func TestGradeLayersScenariosAreRightAboutTheirBestOutcome(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "grade", "testdata", "pack", "*.yaml"))
	if err != nil || len(paths) != len(layersBest) {
		t.Fatalf("the scenarios: %v, %v", paths, err)
	}
	scs, err := scenario.Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	strategies, err := strategiesFrom(strings.Join(defaultNames(), ","))
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
	succeeds := map[string]bool{}
	for _, r := range rep.Results {
		succeeds[r.Scenario] = succeeds[r.Scenario] || r.Outcome == ledger.OutcomeSuccess
	}
	for _, v := range vs {
		best, declared := layersBest[v.Scenario]
		switch {
		case !declared:
			t.Errorf("%s: declares no best outcome in layersBest", v.Scenario)
		case best == ledger.OutcomeSuccess && !succeeds[v.Scenario]:
			t.Errorf("%s: no preset succeeded where a correct client can", v.Scenario)
		case best != ledger.OutcomeSuccess && succeeds[v.Scenario]:
			t.Errorf("%s: a preset succeeded where a correct client stops", v.Scenario)
		case best == ledger.OutcomeSuccess && !slices.Contains(v.Best, "classify"):
			t.Errorf("%s: classify did not reach the best outcome (best: %v)", v.Scenario, v.Best)
		}
	}
}
