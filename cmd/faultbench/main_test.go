package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRunPrintsATablePerScenarioAndASummary(t *testing.T) {
	code, out, errOut := run(t, "run", "../../scenarios")
	if code != exitOK {
		t.Fatalf("exit %d, stderr: %s", code, errOut)
	}
	for _, want := range []string{"== overloaded-then-backup ==", "== summary ==", "blind/classify", "| blind ", "| classify "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestRunJSONFollowsTheContract(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "out.json")
	code, out, errOut := run(t, "run", "--format", "json", "--out", file, "--seed", "3", "--parallel", "1", "../../scenarios/truncated-answer.yaml")
	if code != exitOK {
		t.Fatalf("exit %d, stderr: %s", code, errOut)
	}
	if out != "" {
		t.Errorf("--out still wrote to stdout: %q", out)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Seed    uint64           `json:"seed"`
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Seed != 3 || len(doc.Results) != len(presetNames()) {
		t.Fatalf("seed %d, %d results", doc.Seed, len(doc.Results))
	}
	keys := []string{"scenario", "strategy", "outcome", "attempts", "repair_calls", "wait_ms", "submitted_input_tokens",
		"repair_input_tokens", "output_tokens", "fallbacks", "compactions", "escalations", "steps", "attempts_log"}
	for _, k := range keys {
		if _, ok := doc.Results[0][k]; !ok {
			t.Errorf("result lacks %q", k)
		}
	}
	attempt := doc.Results[0]["attempts_log"].([]any)[0].(map[string]any)
	for _, k := range []string{"n", "model", "max_tokens", "input_tokens", "status", "kind", "wait_before_ms"} {
		if _, ok := attempt[k]; !ok {
			t.Errorf("attempt lacks %q", k)
		}
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	yaml := "name: broken\ndescription: d\nmodels:\n  m: {context_window: 1000, max_output: 100}\nturn:\n  model: m\n  max_tokens: lots\n  messages: [{count: 1, tokens: 10}]\n  answer_tokens: 5\n"
	if err := os.WriteFile(broken, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"broken scenario":  {"run", broken},
		"validate broken":  {"validate", broken},
		"unknown flag":     {"run", "--frobnicate", "../../scenarios"},
		"unknown command":  {"frobnicate"},
		"unknown strategy": {"run", "--strategies", "blind,nope", "../../scenarios"},
		"unknown format":   {"run", "--format", "yaml", "../../scenarios"},
		"missing path":     {"run", filepath.Join(dir, "absent")},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			code, _, errOut := run(t, args...)
			if code != exitBadInput {
				t.Fatalf("exit %d, want 2; stderr: %s", code, errOut)
			}
			if errOut == "" {
				t.Fatal("no error message")
			}
		})
	}
	_, _, errOut := run(t, "run", broken)
	if !strings.Contains(errOut, "broken.yaml:7:") || !strings.Contains(errOut, "turn.max_tokens") {
		t.Errorf("error does not name file, line and field: %s", errOut)
	}
}

func TestValidateListsScenarios(t *testing.T) {
	code, out, errOut := run(t, "validate", "../../scenarios")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "rate-limit-burst") {
		t.Errorf("validate output: %s", out)
	}
}
