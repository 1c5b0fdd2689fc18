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
// The tables are merge's of the package's defaultSuite: run prints the
// same (TestMergeOfARunsJSONPrintsTheRunsTable).
func TestTablesFit120Columns(t *testing.T) {
	computeOnly(t)
	report := defaultSuiteFile(t)
	for _, args := range [][]string{
		{"merge", "--format", "table", "--scenarios", "../../scenarios", report},
		{"merge", "--format", "table", "--all-rows", "--scenarios", "../../scenarios", report},
		{"strategies"},
	} {
		code, out, errOut := run(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		expectFits(t, strings.Join(args, " "), out)
	}
}

func TestRunTableLeadsWithTheComparisonAndNamesTheCheapestStop(t *testing.T) {
	code, out, errOut := run(t, "run", "../../scenarios/auth-expired.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "Single turns, 1 scenario: the best outcome each allows was reached by classify 1,") {
		t.Errorf("does not start with the comparison:\n%s", out)
	}
	for _, want := range []string{
		"\nBudgets: every budget holds.\n",
		"\n== summary: single turns ==\n",
		"\n== grid: single turns ==\n",
		// Nobody can succeed on a dead key: classify stops in one attempt, the best outcome there is.
		// Seven others stop as soon: they share the first place.
		"auth-expired: none succeeded; cheapest stop classify and 7 more (tied): failed after 1 attempt",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| reason ") {
		t.Errorf("the cost table is shown without --details or --scenario:\n%s", out)
	}
	for _, args := range [][]string{{"--details"}, {"--scenario", "auth-expired"}} {
		code, out, _ := run(t, append(append([]string{"run"}, args...), "../../scenarios/auth-expired.yaml")...)
		if code != exitOK || !strings.Contains(out, "== auth-expired ==\n") || !strings.Contains(out, "| reason ") ||
			!strings.Contains(out, "(1) auth: ") || strings.Contains(out, "| escalations ") {
			t.Errorf("%v: exit %d, no cost table (or a row zero for every strategy):\n%s", args, code, out)
		}
	}
	if code, out, _ = run(t, "run", "--details", "--all-rows", "../../scenarios/auth-expired.yaml"); code != exitOK || !strings.Contains(out, "| escalations ") {
		t.Errorf("--all-rows: exit %d, escalations row missing:\n%s", code, out)
	}
	code, out, _ = run(t, "run", "--summary-only", "../../scenarios/auth-expired.yaml")
	if code != exitOK || strings.Contains(out, "auth-expired") || !strings.Contains(out, "== summary: single turns ==") {
		t.Errorf("--summary-only: exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{{"--scenario", "no-such"}, {"--reference", "no-such"}} {
		code, _, errOut := run(t, append(append([]string{"run"}, args...), "../../scenarios/auth-expired.yaml")...)
		if code != exitBadInput || !strings.Contains(errOut, `"no-such"`) {
			t.Errorf("%v: exit %d, stderr %s", args, code, errOut)
		}
	}
}
