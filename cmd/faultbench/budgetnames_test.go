package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A budget keyed by a misspelt strategy would never be checked: validate
// and run both refuse it, with the file, the line and the field.
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
	want := file + ":" + strconv.Itoa(line) + ":3: expect.clasify: no strategy is called \"clasify\""
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
