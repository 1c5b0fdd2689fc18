package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// newcomer is the script a new user writes first: three 429s, a 529, then
// the answer — five attempts.
const newcomer = `name: newcomer
description: three 429s, a 529, then the answer
models:
  primary: {context_window: 200000, max_output: 32000}
turn:
  model: primary
  max_tokens: 4000
  messages: [{count: 4, tokens: 500}]
  answer_tokens: 300
script:
  - times: 3
    respond: {status: 429, headers: {retry-after: "2"}}
  - times: 1
    respond: {status: 529}
  - respond: {ok: true}
`

// Hindsight's default bound finds the newcomer's plan: five sends, each
// 429's 2 s waited out (the mock refuses a retry before it).
func TestHindsightSolvesTheNewcomersScript(t *testing.T) {
	sc, err := scenario.Parse("newcomer.yaml", []byte(newcomer))
	if err != nil {
		t.Fatal(err)
	}
	b, err := harness.NewBench(RunSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Add(sc); err != nil {
		t.Fatal(err)
	}
	h, err := Hindsight(context.Background(), b, sc, DefaultBound)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Cost.Success || h.Cost.Requests != 5 || h.Bounded {
		t.Fatalf("hindsight: %s, %v (%d plays, bounded %v); want 5 requests that succeed", h.Plan, h.Cost, h.Plays, h.Bounded)
	}
	t.Logf("%s: %v in %d plays", h.Plan, h.Cost, h.Plays)
}

// Where hindsight finds no plan, its row says so and no run gets a regret;
// where a run costs less by the scalar than hindsight's plan, regrets are
// against that run, and none is below 1.
func TestHindsightRowsAndRegrets(t *testing.T) {
	sc, err := scenario.Parse("newcomer.yaml", []byte(newcomer))
	if err != nil {
		t.Fatal(err)
	}
	rep := ledger.Report{Seed: RunSeed, Results: []ledger.Result{{Scenario: sc.Name, Strategy: "s", Outcome: ledger.OutcomeFailed, Attempts: 5}}}
	tight := Bound{Depth: 2, Plays: 10}
	if err := AddHindsight(context.Background(), []*scenario.Scenario{sc}, &rep, tight); err != nil {
		t.Fatal(err)
	}
	row := rep.Results[len(rep.Results)-1]
	if row.Plan != NoPlan || row.Regret != 0 || rep.Results[0].Regret != 0 {
		t.Fatalf("no plan: hindsight's row %q regret %v, the run's regret %v", row.Plan, row.Regret, rep.Results[0].Regret)
	}
	// A run that waits nothing and sends five times is hindsight's plan:
	// regret 1; one that cost less by the scalar (fewer tokens) makes the
	// reference, and hindsight's own row is above 1.
	rep = ledger.Report{Seed: RunSeed, Results: []ledger.Result{
		{Scenario: sc.Name, Strategy: "cheap", Outcome: ledger.OutcomeSuccess, Attempts: 5, SubmittedInputTokens: 100},
		{Scenario: sc.Name, Strategy: "dear", Outcome: ledger.OutcomeSuccess, Attempts: 5, WaitMS: 30000, SubmittedInputTokens: 2500},
	}}
	if err := AddHindsight(context.Background(), []*scenario.Scenario{sc}, &rep, DefaultBound); err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Regret < 1 {
			t.Errorf("%s: regret %v below 1", r.Strategy, r.Regret)
		}
	}
	if rep.Results[0].Regret != 1 || !strings.Contains(rep.Results[2].Plan, "cheap cost less") {
		t.Errorf("cheap's regret %v, hindsight's plan %q", rep.Results[0].Regret, rep.Results[2].Plan)
	}
}

// TestAFailedRunsRegretIsAboveOne: on retry-after-above-cap, hindsight
// waits the hour the server asks; a run that gives up costs less by the
// scalar than that wait, and its regret was printed as 0.06x, as if
// failing beat the optimum. A failure's regret is above 1.
func TestAFailedRunsRegretIsAboveOne(t *testing.T) {
	sc, err := scenario.LoadFile("../scenarios/retry-after-above-cap.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep := ledger.Report{Seed: RunSeed, Results: []ledger.Result{
		{Scenario: sc.Name, Strategy: "gives-up", Outcome: ledger.OutcomeFailed, Attempts: 1, SubmittedInputTokens: 1000},
	}}
	if err := AddHindsight(context.Background(), []*scenario.Scenario{sc}, &rep, DefaultBound); err != nil {
		t.Fatal(err)
	}
	hs := rep.Results[len(rep.Results)-1]
	if !strings.HasPrefix(hs.Plan, "wait") || hs.Regret != 1 {
		t.Fatalf("hindsight's plan %q, regret %v: want a plan that waits, regret 1", hs.Plan, hs.Regret)
	}
	if got := rep.Results[0].Regret; got <= 1 {
		t.Errorf("the failed run's regret is %v: a failure reads as cheaper than hindsight's success", got)
	}
}
