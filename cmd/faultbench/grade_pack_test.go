package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

// overflows are the pack's context-overflow scenarios, one per wire.
var overflows = []string{"context-overflow", "context-overflow-openai", "context-overflow-gemini"}

// packBest is the best outcome each scenario of the built-in pack
// allows a correct client: success, or the prompt stop (failed) where
// no retry can help — a permanent error, a fault that never passes, an
// overflow on Gemini that only less input fits, which no preset without
// compaction sends; and a 404 for the model, where stopping is right and
// only a client that falls back to backup, which no preset does on a
// 404, gets an answer.
var packBest = map[string]ledger.Outcome{
	"retry-after": ledger.OutcomeSuccess, "retry-after-ms": ledger.OutcomeSuccess, "retry-info-gemini": ledger.OutcomeSuccess,
	"should-retry-false": ledger.OutcomeFailed, "invalid-request": ledger.OutcomeFailed, "permission-denied": ledger.OutcomeFailed,
	"model-not-found": ledger.OutcomeFailed, "quota-exhausted": ledger.OutcomeFailed,
	"overload-persistent": ledger.OutcomeFailed, "overload-persistent-openai": ledger.OutcomeFailed,
	"overloaded-transient": ledger.OutcomeSuccess, "overloaded-transient-openai": ledger.OutcomeSuccess,
	"overloaded-transient-gemini": ledger.OutcomeSuccess, "server-error-transient": ledger.OutcomeSuccess,
	"connection-reset": ledger.OutcomeSuccess, "stream-cut": ledger.OutcomeSuccess, "stream-cut-openai": ledger.OutcomeSuccess,
	"stream-cut-always": ledger.OutcomeFailed, "hang": ledger.OutcomeSuccess,
	"context-overflow": ledger.OutcomeSuccess, "context-overflow-openai": ledger.OutcomeSuccess,
	"context-overflow-gemini": ledger.OutcomeFailed, "overloaded-fallback": ledger.OutcomeSuccess,
	// A 30-minute outage: a client may ride it out, but none of the
	// compared presets does (opencode, named only, would); the best is
	// the cheapest stop.
	"outage-30min": ledger.OutcomeFailed, "overload-forever": ledger.OutcomeFailed,
	"retry-after-ladder-030": ledger.OutcomeSuccess, "retry-after-ladder-059": ledger.OutcomeSuccess,
	"retry-after-ladder-060": ledger.OutcomeSuccess, "retry-after-ladder-061": ledger.OutcomeSuccess,
	"retry-after-ladder-120": ledger.OutcomeSuccess, "retry-after-ladder-121": ledger.OutcomeSuccess,
	"retry-after-ladder-600": ledger.OutcomeSuccess, "retry-after-ladder-none": ledger.OutcomeSuccess,
}

// overClassifyCap is the ladder's rung over classify's retry-after cap
// (60 s, then it waits the cap): the mock keeps its 429 until the 600 s
// it asked have passed, and classify's 5 attempts end before that.
const overClassifyCap = "retry-after-ladder-600"

// TestGradePackIsRightAboutItsBestOutcome runs the presets over the
// built-in pack: each scenario's best outcome is the one packBest
// declares, classify reaches it in every scenario where that is success
// (elsewhere the best is the cheapest stop, a matter of how long a
// policy persists), and blind, which resends an overflowing request unchanged, in none of
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
	succeeds := map[string]bool{}
	for _, r := range rep.Results {
		succeeds[r.Scenario] = succeeds[r.Scenario] || r.Outcome == ledger.OutcomeSuccess
	}
	for _, v := range vs {
		best, declared := packBest[v.Scenario]
		switch {
		case !declared:
			t.Errorf("%s: the pack's scenario declares no best outcome in packBest", v.Scenario)
		case best == ledger.OutcomeSuccess && !succeeds[v.Scenario]:
			t.Errorf("%s: no preset succeeded where a correct client can", v.Scenario)
		case best != ledger.OutcomeSuccess && succeeds[v.Scenario]:
			t.Errorf("%s: a preset succeeded where the pack says a correct client stops", v.Scenario)
		case best == ledger.OutcomeSuccess && !slices.Contains(v.Best, "classify") && v.Scenario != overClassifyCap:
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

// TestGradeCheckFailsOnOneFailure grades the naive client on one
// scenario with one check, which it fails, and no budget: --check exits
// 1 on that single failure.
func TestGradeCheckFailsOnOneFailure(t *testing.T) {
	dir := t.TempDir()
	one := `name: one-400
description: a 400 to every request; no budget
grade: [permanent]
models:
  primary: {context_window: 200000, max_output: 32000}
aliases: {any: primary}
turn:
  model: primary
  max_tokens: 1024
  messages: [{count: 1, tokens: 10}]
  answer_tokens: 10
script:
  - respond: {status: 400}
`
	if err := os.WriteFile(filepath.Join(dir, "one.yaml"), []byte(one), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := gradeWith(t, "naive", "--check", "--pack", dir)
	if code != exitFailed || !strings.Contains(errOut, "1 failed check") || strings.Contains(errOut, "budget") {
		t.Fatalf("exit %d, want %d: %s%s", code, exitFailed, errOut, out)
	}
}

// TestGradePackLadderMatchesTheDocumentedCeilings runs the strategy files
// of the documented Retry-After ceilings over the pack's ladder and long
// outage, on the virtual clock: openai-python gives up above 120 s at
// once, anthropic-python falls back to its backoff above 60 s (and meets
// the 429 the mock keeps until its wait has passed, three times), opencode
// waits every rung and rides the 30-minute outage out.
func TestGradePackLadderMatchesTheDocumentedCeilings(t *testing.T) {
	all, err := grade.Pack()
	if err != nil {
		t.Fatal(err)
	}
	var scs []*scenario.Scenario
	for _, sc := range all {
		if strings.HasPrefix(sc.Name, "retry-after-ladder-") || sc.Name == "outage-30min" {
			scs = append(scs, sc)
		}
	}
	strategies, err := strategiesFrom("../../strategies/openai-python.yaml,../../strategies/anthropic-python.yaml,../../strategies/opencode.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harness.Run(context.Background(), scs, strategies, harness.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rep.Results {
		got[r.Strategy+" "+r.Scenario] = fmt.Sprintf("%s %d", r.Outcome, r.Attempts)
	}
	want := map[string]string{
		"openai-python retry-after-ladder-120": "success 2", "openai-python retry-after-ladder-121": "failed 1",
		"openai-python retry-after-ladder-600": "failed 1", "openai-python outage-30min": "failed 3",
		"anthropic-python retry-after-ladder-060": "success 2", "anthropic-python retry-after-ladder-061": "failed 3",
		"anthropic-python retry-after-ladder-600": "failed 3",
		"opencode retry-after-ladder-600":         "success 2", "opencode outage-30min": "success 64",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}
