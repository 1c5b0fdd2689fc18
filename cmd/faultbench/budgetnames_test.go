package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A budget keyed by a misspelt strategy would never be checked: validate
// and run both refuse it, with the file, the line, the field and the name
// meant.
func TestBudgetForAnUnknownStrategyIsBadInput(t *testing.T) {
	data, err := os.ReadFile("../../scenarios/flaky-5xx.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "\n  classify:", "\n  clasify:", 1)
	if text == string(data) {
		t.Fatal("flaky-5xx.yaml has no classify budget to misspell")
	}
	line := strings.Count(text[:strings.Index(text, "clasify:")], "\n") + 1
	file := filepath.Join(t.TempDir(), "typo.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	want := file + ":" + strconv.Itoa(line) + ":3: expect.clasify: no strategy is called \"clasify\", so this budget would never be checked; did you mean \"classify\"?"
	for name, args := range map[string][]string{
		"validate": {"validate", file},
		"run":      {"run", "--strategies", "classify", file},
	} {
		t.Run(name, func(t *testing.T) {
			code, _, errOut := run(t, args...)
			if code != exitBadInput || !strings.Contains(errOut, want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errOut, exitBadInput, want)
			}
		})
	}
	// A budget for a strategy of the run, or one in strategies/ beside the
	// scenarios, is known.
	if code, _, errOut := run(t, "validate", "../../scenarios"); code != exitOK {
		t.Fatalf("the default suite: exit %d, %s", code, errOut)
	}
	custom := strings.Replace(string(data), "\n  classify:", "\n  mine:", 1)
	if err := os.WriteFile(file, []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(t.TempDir(), "mine.yaml")
	if err := os.WriteFile(mine, []byte("name: mine\nbase: classify\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "run", "--strategies", mine, file); code != exitOK {
		t.Fatalf("a budget for the run's own strategy: exit %d, %s", code, errOut)
	}
}

// Only a name a typo away from a known strategy is an error: two edits, or
// the same name in another case or with '_' for '-'. Any other unknown name
// is said once to be not checked, and the run goes on.
func TestBudgetNamesTypoOrElsewhere(t *testing.T) {
	data, err := os.ReadFile("../../scenarios/flaky-5xx.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ key, meant string }{
		{"clasify", "classify"},
		{"classify-flet", "classify-fleet"},
		{"Classify_Fleet", "classify-fleet"},
		{"ClassifyFleet", "classify-fleet"},
		{"sdkopenai", "sdk-openai"},
		{"mine", ""},
		{"classify-strict-for-ci", ""},
	} {
		text := strings.Replace(string(data), "\n  classify:", "\n  "+tc.key+":", 1)
		file := filepath.Join(dir, "f.yaml")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := run(t, "validate", file)
		if tc.meant != "" {
			want := "did you mean \"" + tc.meant + "\"?"
			if code != exitBadInput || !strings.Contains(errOut, want) {
				t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", tc.key, code, errOut, want)
			}
			continue
		}
		want := "not checked in this run: the budgets for " + tc.key + " "
		if code != exitOK || strings.Count(errOut, want) != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 0 and %q once", tc.key, code, errOut, want)
		}
	}
}

// The default suite's scenarios copied out without strategies/ still run:
// the budgets for its example strategy files are said once to be not
// checked; validate --strategies with those files checks them.
func TestCopiedScenariosRunWithoutTheirStrategies(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"loop-ping-pong.yaml", "retry-after-above-cap.yaml"} {
		data, err := os.ReadFile(filepath.Join("../../scenarios", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	note := "not checked in this run: the budgets for classify-budgeted, classify-loop-strict "
	for name, args := range map[string][]string{
		"validate": {"validate", dir},
		"run":      {"run", "--strategies", "classify", dir},
	} {
		code, _, errOut := run(t, args...)
		if code != exitOK || strings.Count(errOut, note) != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 0 and %q once", name, code, errOut, note)
		}
	}
	code, _, errOut := run(t, "validate", "--strategies", "../../strategies", dir)
	if code != exitOK || strings.Contains(errOut, "not checked") {
		t.Errorf("validate --strategies: exit %d, stderr %q; want exit 0 and every budget known", code, errOut)
	}
}
