package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
)

// firstScreenTable renders the default suite's results of the named
// strategies as `run --strategies` orders them.
func firstScreenTable(t *testing.T, strategies ...string) string {
	t.Helper()
	rep, _, err := reports.ReadJSON(strings.NewReader(defaultSuiteJSON(t)))
	if err != nil {
		t.Fatal(err)
	}
	rep.Results = slices.DeleteFunc(rep.Results, func(r ledger.Result) bool { return !slices.Contains(strategies, r.Strategy) })
	var buf bytes.Buffer
	if err := reports.Table(&buf, rep, reports.Options{Strategies: strategies}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// headlineCounts reads the counts the headline gives each strategy: the
// single turns' best outcomes and the fleets' best fleet.
func headlineCounts(t *testing.T, table string) map[string]string {
	t.Helper()
	head, _, _ := strings.Cut(table, "\n\n")
	head = strings.Join(strings.Fields(head), " ")
	out := map[string]string{}
	turns := regexp.MustCompile(`Single turns, [^:]*: the best outcome each allows was reached by ([^.]*)\.`).FindStringSubmatch(head)
	fleets := regexp.MustCompile(`Fleets, [^:]*: best fleet ([^.(]*)`).FindStringSubmatch(head)
	if turns == nil || fleets == nil {
		t.Fatalf("no counts in the headline:\n%s", head)
	}
	for _, m := range regexp.MustCompile(`([a-z0-9-]+) (\d+)`).FindAllStringSubmatch(turns[1], -1) {
		out["turns "+m[1]] = m[2]
	}
	for _, m := range regexp.MustCompile(`([a-z0-9-]+) in (\d+)`).FindAllStringSubmatch(fleets[1], -1) {
		out["fleets "+m[1]] = m[2]
	}
	return out
}

// Ties are ties: the order of --strategies changes no count. The default
// suite has an exact fleet tie (cache-fleet-shared-system), which used to
// go to whichever strategy was listed first.
func TestTheOrderOfStrategiesChangesNoCount(t *testing.T) {
	ab := headlineCounts(t, firstScreenTable(t, "classify", "blind"))
	ba := headlineCounts(t, firstScreenTable(t, "blind", "classify"))
	if len(ab) == 0 || !maps.Equal(ab, ba) {
		t.Errorf("counts differ with the order of --strategies:\nclassify,blind: %v\nblind,classify: %v", ab, ba)
	}
	if ab["fleets blind"] == "" {
		t.Errorf("blind shares the tied fleet, yet the headline gives it none: %v", ab)
	}
}

// The default answer fits the terminal: COLUMNS when set, else 100 (a
// test's stdout is no terminal); at 100 columns in at most 300 lines, as
// many as docs/reports.md says, with
// "where the strategies differ" before the big tables. merge prints what
// run prints (TestMergeOfARunsJSONPrintsTheRunsTable).
func TestTheDefaultAnswerFitsTheTerminal(t *testing.T) {
	report := defaultSuiteFile(t)
	for _, tc := range []struct {
		columns   string
		width     int
		maxLines  int
		checkHead bool
	}{{"", 100, 300, true}, {"80", 80, 0, false}, {"132", 132, 0, false}} {
		t.Setenv("COLUMNS", tc.columns)
		code, out, errOut := run(t, "merge", "--format", "table", "--scenarios", "../../scenarios", report)
		if code != exitOK {
			t.Fatalf("COLUMNS=%q: exit %d: %s", tc.columns, code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		for i, line := range lines {
			if n := utf8.RuneCountInString(line); n > tc.width {
				t.Errorf("COLUMNS=%q: line %d is %d columns wide (max %d): %s", tc.columns, i+1, n, tc.width, line)
			}
		}
		if tc.maxLines > 0 && len(lines) > tc.maxLines {
			t.Errorf("COLUMNS=%q: %d lines, more than %d", tc.columns, len(lines), tc.maxLines)
		}
		if tc.checkHead {
			doc, err := os.ReadFile("../../docs/reports.md")
			if err != nil {
				t.Fatal(err)
			}
			if says := fmt.Sprintf("The default suite prints %d lines at 100\ncolumns", len(lines)); !strings.Contains(string(doc), says) {
				t.Errorf("docs/reports.md does not say %q", says)
			}
			// A failure a strategy's own rule chose says so on the first screen.
			for _, why := range []string{"sdk-openai after 1 (wait above its cap)", "sdk-openai after 1\n  (x-should-retry: false)"} {
				if !strings.Contains(out, why) {
					t.Errorf("the first screen does not say %q", why)
				}
			}
			differ, summary := strings.Index(out, "== where the strategies differ =="), strings.Index(out, "== summary: single turns ==")
			if differ < 0 || summary < 0 || differ > summary {
				t.Errorf("\"where the strategies differ\" (at %d) does not come before the summary (at %d)", differ, summary)
			}
		}
	}
}

// validate checks scenarios; given a strategy file, it says what it is and
// which command checks it, rather than "description: required".
func TestValidateNamesAStrategyFile(t *testing.T) {
	code, _, errOut := run(t, "validate", "../../strategies/classify-budgeted.yaml")
	if code != exitBadInput || !strings.Contains(errOut, "is a strategy file, not a scenario: check it with `faultbench strategies ../../strategies/classify-budgeted.yaml`") {
		t.Errorf("exit %d, stderr: %s", code, errOut)
	}
	if code, _, errOut := run(t, "validate", "../../scenarios/auth-expired.yaml"); code != exitOK {
		t.Errorf("a scenario: exit %d, stderr: %s", code, errOut)
	}
}
