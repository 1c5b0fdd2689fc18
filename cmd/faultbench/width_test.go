package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/faultbench/faultbench/internal/texttable"
)

// expectFits fails on every line of out wider than texttable.MaxWidth runes.
func expectFits(t *testing.T, what, out string) {
	t.Helper()
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > texttable.MaxWidth {
			t.Errorf("%s: line %d is %d columns wide (max %d): %s", what, i+1, n, texttable.MaxWidth, line)
		}
	}
}

// The tables a person reads fit a 120-column terminal: the whole default
// suite against every preset, every row shown, and the presets side by side.
func TestTablesFit120Columns(t *testing.T) {
	for _, args := range [][]string{
		{"run", "../../scenarios"},
		{"run", "--all-rows", "../../scenarios"},
		{"strategies"},
	} {
		code, out, errOut := run(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		expectFits(t, strings.Join(args, " "), out)
	}
}

func TestRunTableLeadsWithTheSummaryAndNamesTheCheapestAsExpected(t *testing.T) {
	code, out, errOut := run(t, "run", "../../scenarios/auth-expired.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "== summary ==\n") {
		t.Errorf("does not start with the summary:\n%s", out)
	}
	for _, want := range []string{
		"| reason ",
		"(1) auth: ",
		// blind, classify and claude-code are expected to fail; classify does so in one attempt.
		"as expected: 3 of 3; cheapest of them: classify (failed; 1 attempt, 0s wait,",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| escalations ") {
		t.Errorf("a row zero for every strategy is shown:\n%s", out)
	}
	if code, out, _ = run(t, "run", "--all-rows", "../../scenarios/auth-expired.yaml"); code != exitOK || !strings.Contains(out, "| escalations ") {
		t.Errorf("--all-rows: exit %d, escalations row missing:\n%s", code, out)
	}
	code, out, _ = run(t, "run", "--summary-only", "../../scenarios/auth-expired.yaml")
	if code != exitOK || strings.Contains(out, "== auth-expired ==") || !strings.Contains(out, "== summary ==") {
		t.Errorf("--summary-only: exit %d:\n%s", code, out)
	}
}
