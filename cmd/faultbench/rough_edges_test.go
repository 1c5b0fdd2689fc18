package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestVersionSaysWhichBuild(t *testing.T) {
	code, out, errOut := run(t, "--version")
	if code != exitOK || !strings.HasPrefix(out, "faultbench ") || !strings.Contains(out, runtime.Version()) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestStrategiesOfAnUnknownNameNamesNoFlag(t *testing.T) {
	code, _, errOut := run(t, "strategies", "nosuch")
	if code != exitBadInput || !strings.Contains(errOut, `unknown strategy "nosuch"`) || strings.Contains(errOut, "--strategies") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	// Through the flag, the flag is named.
	code, _, errOut = run(t, "run", "--strategies", "nosuch", "../../scenarios/auth-expired.yaml")
	if code != exitBadInput || !strings.Contains(errOut, `--strategies: unknown strategy "nosuch"`) {
		t.Fatalf("run: exit %d, stderr %q", code, errOut)
	}
}

func TestAPresetPrintedAsAFileRunsBesideThePreset(t *testing.T) {
	code, out, errOut := run(t, "strategies", "classify")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "# ") || !strings.Contains(out, "\nname: classify-custom\n") {
		t.Fatalf("want a comment and the name classify-custom:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "mine.yaml")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, "run", "--summary-only", "--strategies", "classify,"+file, "../../scenarios/auth-expired.yaml")
	if code != exitOK || !strings.Contains(out, "| classify-custom ") {
		t.Fatalf("exit %d, stderr %s:\n%s", code, errOut, out)
	}
}

func TestMergeWithoutScenariosSaysWhatWasNotChecked(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.json")
	if code, _, errOut := run(t, "run", "--format", "json", "--out", file, "--strategies", "classify", "../../scenarios/auth-expired.yaml"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	code, _, errOut := run(t, "merge", "--format", "table", file)
	if code != exitOK || !strings.Contains(errOut, "no --scenarios given: descriptions, budgets and expected outcomes were not checked") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = run(t, "merge", "--scenarios", "../../scenarios/auth-expired.yaml", file)
	if code != exitOK || strings.Contains(errOut, "not checked") {
		t.Fatalf("with --scenarios: exit %d, stderr %q", code, errOut)
	}
}

func TestABadlyIndentedScenarioNamesTheFieldAndHintsAtIndentation(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.yaml")
	yaml := "name: bad\ndescription: d\nmodels:\n  m: {context_window: 1000, max_output: 100}\n" +
		"turn:\n  model: m\n  max_tokens: 100\n   messages: [{count: 1, tokens: 10}]\n  answer_tokens: 10\n"
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "validate", file)
	if code != exitBadInput || !strings.Contains(errOut, "bad.yaml:7:") || !strings.Contains(errOut, "near turn.max_tokens") ||
		!strings.Contains(errOut, "check the indentation") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestAnUnwritableOutIsBadInputNamingThePath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(file, "report.json") // under a file: no folder can be made
	code, _, errOut := run(t, "run", "--format", "json", "--out", out, "--strategies", "classify", "../../scenarios/auth-expired.yaml")
	if code != exitBadInput || !strings.Contains(errOut, "--out") || !strings.Contains(errOut, out) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestOutCreatesMissingFolders(t *testing.T) {
	out := filepath.Join(t.TempDir(), "reports", "pr-42", "report.json")
	code, _, errOut := run(t, "run", "--format", "json", "--out", out, "--strategies", "classify", "../../scenarios/auth-expired.yaml")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), `"auth-expired"`) {
		t.Fatalf("report not written: %v", err)
	}
}
