package reports

import (
	"fmt"
	"strings"

	"github.com/faultbench/faultbench/ledger"
)

// Expectation is the outcome a scenario's expect block names for one
// strategy ("failed", "!= failed") and whether that strategy's run met it.
// A failure the scenario expects — a 403 given up on at once — is as
// expected, though not a success.
type Expectation struct {
	Scenario string
	Strategy string
	Outcome  string // as written in the expect block
	Met      bool
}

// expectations indexes opts.Expectations by scenario and strategy.
func expectations(es []Expectation) map[key]Expectation {
	out := make(map[key]Expectation, len(es))
	for _, e := range es {
		out[key{e.Scenario, e.Strategy}] = e
	}
	return out
}

// CheapestOrder is the order in which the verdict line of a scenario ranks
// the strategies to name the cheapest: first those whose outcome is as
// expected, then fewer attempts, then less virtual wait, then fewer submitted
// input tokens; a tie goes to the strategy shown first.
const CheapestOrder = "outcome as expected, then fewest attempts, then least wait, then fewest submitted input tokens"

// cheaper reports whether a ranks before b in [CheapestOrder], with metA
// and metB saying whether each met its expected outcome.
func cheaper(a, b ledger.Result, metA, metB bool) bool {
	switch {
	case metA != metB:
		return metA
	case a.Attempts != b.Attempts:
		return a.Attempts < b.Attempts
	case a.WaitMS != b.WaitMS:
		return a.WaitMS < b.WaitMS
	default:
		return a.SubmittedInputTokens < b.SubmittedInputTokens
	}
}

// scenarioVerdict is the line under a scenario's table: how many of the
// strategies with an expected outcome met it, and the cheapest of those
// that did (see [CheapestOrder]), with its outcome and costs. Empty when the
// scenario names no expected outcome for any strategy shown.
func scenarioVerdict(g grouped, scenario string, exp map[key]Expectation) string {
	var named, met int
	best, bestName := ledger.Result{}, ""
	for _, s := range g.strategies {
		r, ok := g.cell(scenario, s)
		e, has := exp[key{scenario, s}]
		if !ok || !has {
			continue
		}
		named++
		if !e.Met {
			continue
		}
		met++
		if bestName == "" || cheaper(r, best, true, true) {
			best, bestName = r, s
		}
	}
	if named == 0 {
		return ""
	}
	if met == 0 {
		return fmt.Sprintf("as expected: none of the %d %s with an expected outcome", named, plural(named, "strategy", "strategies"))
	}
	costs := fmt.Sprintf("%s (%s; %s %s, %s wait, %s submitted input tokens)",
		bestName, orNoValue(string(best.Outcome)), formatInt(int64(best.Attempts)),
		plural(best.Attempts, "attempt", "attempts"), formatWait(best.WaitMS), formatInt(int64(best.SubmittedInputTokens)))
	if met == 1 {
		return fmt.Sprintf("as expected: 1 of %d, %s", named, costs)
	}
	return fmt.Sprintf("as expected: %d of %d; cheapest of them: %s", met, named, costs)
}

// reasonNotes numbers the distinct give-up reasons of a scenario's runs in
// the order of the strategies: the reason row of the table shows each run's
// number, "(1)", and the notes under the table say what each is.
func reasonNotes(g grouped, scenario string) (cell map[string]string, notes []string) {
	cell = map[string]string{}
	index := map[string]int{}
	for _, s := range g.strategies {
		r, ok := g.cell(scenario, s)
		if !ok || r.Reason == "" {
			continue
		}
		n, seen := index[r.Reason]
		if !seen {
			notes = append(notes, r.Reason)
			n = len(notes)
			index[r.Reason] = n
		}
		cell[s] = fmt.Sprintf("(%d)", n)
	}
	for i, n := range notes {
		notes[i] = fmt.Sprintf("(%d) %s", i+1, strings.Join(strings.Fields(n), " "))
	}
	return cell, notes
}
