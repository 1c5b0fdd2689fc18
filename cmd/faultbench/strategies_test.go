package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
	"github.com/faultbench/faultbench/scenario"
)

func TestStrategiesListsEveryPresetWithItsParameters(t *testing.T) {
	code, out, errOut := run(t, "strategies")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, name := range []string{"blind", "classify", "classify-preflight", "claude-code", "kimi-code", "s11", "sdk-anthropic", "sdk-openai"} {
		if !strings.Contains(out, "| "+name+" ") && !strings.Contains(out, " "+name+" |") {
			t.Errorf("no column for %s", name)
		}
		if !strings.Contains(out, "\n"+name+": ") {
			t.Errorf("no description for %s", name)
		}
	}
	for _, row := range []string{"attempts per step", "backoff", "retry-after", "fallback", "escalation", "compaction", "preflight"} {
		if !strings.Contains(out, "| "+row) {
			t.Errorf("no row %q", row)
		}
	}
}

func TestStrategiesPrintsYAMLThatReadsBack(t *testing.T) {
	code, out, errOut := run(t, "strategies", "claude-code", "../../strategies/classify-budgeted.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	docs := strings.Split(out, "---\n")
	if len(docs) != 2 {
		t.Fatalf("%d documents:\n%s", len(docs), out)
	}
	s, err := strategyfile.Parse("printed.yaml", []byte(docs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "claude-code-custom" || s.Attempts != 11 || s.Backoff != recovery.ClaudeCode().Backoff {
		t.Fatalf("read back %+v", s)
	}
	code, _, errOut = run(t, "strategies", "no-such-strategy")
	if code != exitBadInput {
		t.Fatalf("exit %d for an unknown strategy: %s", code, errOut)
	}
}

func TestRunTakesStrategyFilesAndFolders(t *testing.T) {
	code, out, errOut := run(t, "run", "--strategies", "classify,../../strategies/classify-budgeted.yaml", "../../scenarios/retry-after-above-cap.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "classify-budgeted") {
		t.Errorf("no classify-budgeted column:\n%s", out)
	}
	code, _, errOut = run(t, "run", "--strategies", "classify,../../strategies/classify-budgeted.yaml,../../strategies", "../../scenarios/conflict.yaml")
	if code != exitBadInput || !strings.Contains(errOut, "given twice") {
		t.Fatalf("exit %d, stderr %s: a strategy given twice must be bad input", code, errOut)
	}
}

// The strategies of strategies/ meet the budgets the default suite sets
// for them, as the presets do (harness/e2e_test.go).
func TestTheStrategiesFolderMeetsItsBudgets(t *testing.T) {
	strategies, err := strategiesFrom("../../strategies")
	if err != nil {
		t.Fatal(err)
	}
	scs, err := scenario.Load("../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harness.Run(context.Background(), scs, strategies, harness.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	violations, err := harness.Check(scs, rep.Results)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, v := range violations {
		buf.WriteString(v.String() + "\n")
	}
	if buf.Len() > 0 {
		t.Fatal(buf.String())
	}
}
