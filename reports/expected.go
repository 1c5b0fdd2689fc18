package reports

import (
	"fmt"
	"strings"
)

// Expectation is the outcome a scenario's expect block names for one
// strategy ("failed", "!= failed") and whether that strategy's run met it.
// A failure the scenario expects — a 403 given up on at once — is met,
// though not a success. The scenario tables show them in their
// "expected" row; the summary and the verdicts do not use them (see
// [TurnRule], [BestOutcomeRule]).
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

// expectedRow is the scenario table's row of the outcomes the expect
// block names: the outcome as written, with " (missed)" when the run did
// not meet it; [noValue] where it names none. Shown when it names one.
func expectedRow(g grouped, scenario string, exp map[key]Expectation) []string {
	row := []string{"expected"}
	named := false
	for _, s := range g.strategies {
		e, ok := exp[key{scenario, s}]
		switch {
		case !ok:
			row = append(row, noValue)
		case e.Met:
			named = true
			row = append(row, e.Outcome)
		default:
			named = true
			row = append(row, e.Outcome+" (missed)")
		}
	}
	if !named {
		return nil
	}
	return row
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
