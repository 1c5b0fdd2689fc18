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

// FleetOrder is the order in which the verdict line of a scenario with a
// workload ranks the strategies to name the best: a fleet is judged by the
// work it got done, then by how long it took, then by what it sent — so
// first most turns succeeded, then shortest makespan, then fewest
// attempts; a tie goes to the strategy shown first. Every strategy that
// ran is ranked, whether or not its outcome is the expected one (a
// fleet's outcome is success only when every turn succeeded).
const FleetOrder = "most turns succeeded, then shortest makespan, then fewest attempts"

// fleetBetter reports whether fleet a ranks before fleet b in [FleetOrder].
func fleetBetter(a, b ledger.Workload) bool {
	switch {
	case a.Succeeded != b.Succeeded:
		return a.Succeeded > b.Succeeded
	case a.MakespanMS != b.MakespanMS:
		return a.MakespanMS < b.MakespanMS
	default:
		return a.Attempts < b.Attempts
	}
}

// fleetVerdict is the verdict line of a scenario with a workload: the
// strategy that ranks first in [FleetOrder] with its figures, after how
// many met their expected outcome when the scenario names any. Empty when
// no result of the scenario has a workload.
func fleetVerdict(g grouped, scenario string, exp map[key]Expectation) string {
	var best *ledger.Workload
	bestName := ""
	var named, met int
	for _, s := range g.strategies {
		r, ok := g.cell(scenario, s)
		if !ok {
			continue
		}
		if e, has := exp[key{scenario, s}]; has {
			named++
			if e.Met {
				met++
			}
		}
		if r.Workload != nil && (best == nil || fleetBetter(*r.Workload, *best)) {
			best, bestName = r.Workload, s
		}
	}
	if best == nil {
		return ""
	}
	line := fmt.Sprintf("best fleet: %s (%s/%s turns succeeded, makespan %s, %s %s)",
		bestName, formatInt(int64(best.Succeeded)), formatInt(int64(best.Turns)), formatWait(best.MakespanMS),
		formatInt(int64(best.Attempts)), plural(best.Attempts, "attempt", "attempts"))
	if named > 0 {
		line = fmt.Sprintf("as expected: %d of %d; %s", met, named, line)
	}
	return line
}

// scenarioVerdict is the line under a scenario's table: how many of the
// strategies with an expected outcome met it, and the cheapest of those
// that did (see [CheapestOrder]), with its outcome and costs. Empty when the
// scenario names no expected outcome for any strategy shown. A scenario
// with a workload has the line of fleetVerdict instead.
func scenarioVerdict(g grouped, scenario string, exp map[key]Expectation) string {
	if hasWorkload(g, scenario) {
		return fleetVerdict(g, scenario, exp)
	}
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
