package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// The default suite's answer is at the top and fits where it goes: the
// table in 330 lines, the Markdown in a GitHub comment, the baseline in
// 200 KB; no verdict names a strategy that did not succeed when another
// did. One run (the package's defaultSuite); the other formats come from
// its JSON through merge.
func TestRunDefaultSuiteFitsAndNeverCrownsAFailure(t *testing.T) {
	report := defaultSuiteFile(t)
	merge := func(format string) string {
		t.Helper()
		code, out, errOut := run(t, "merge", "--format", format, "--scenarios", "../../scenarios", report)
		if code != exitOK {
			t.Fatalf("merge --format %s: exit %d, stderr: %s", format, code, errOut)
		}
		return out
	}
	table := merge("table")
	if n := strings.Count(table, "\n"); n > 340 {
		t.Errorf("the default table is %d lines, more than 340", n)
	}
	for _, want := range []string{"Single turns, ", "\nAgainst classify", "\nFleets, ", "== summary: single turns ==",
		"== summary: fleets ==", "== grid: single turns ==", "== grid: fleets ==", "| blind ", "| classify "} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
	if md := merge("markdown"); utf8.RuneCountInString(md) > 60_000 {
		t.Errorf("the Markdown is %d characters, more than 60,000", utf8.RuneCountInString(md))
	}
	if base := merge("baseline"); len(base) > 200<<10 {
		t.Errorf("the baseline is %d bytes, more than 200 KB", len(base))
	}

	data := []byte(defaultSuiteJSON(t))
	var doc struct {
		Results []struct {
			Scenario, Strategy, Outcome string
		} `json:"results"`
		Verdicts []struct {
			Scenario, Winner string
		} `json:"verdicts"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	outcome, succeeded := map[[2]string]string{}, map[string]bool{}
	for _, r := range doc.Results {
		outcome[[2]string{r.Scenario, r.Strategy}] = r.Outcome
		succeeded[r.Scenario] = succeeded[r.Scenario] || r.Outcome == "success"
	}
	if len(doc.Verdicts) == 0 {
		t.Fatal("no verdicts in the JSON")
	}
	for _, v := range doc.Verdicts {
		if got := outcome[[2]string{v.Scenario, v.Winner}]; succeeded[v.Scenario] && got != "success" {
			t.Errorf("%s: the verdict names %s, %s, while another strategy succeeded", v.Scenario, v.Winner, got)
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
	if doc.Seed != 3 || len(doc.Results) != len(defaultNames()) {
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
