package explore

import (
	"context"
	"errors"
	"fmt"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// Objective is what explore looks for (docs/explore.md).
type Objective string

// The objectives.
const (
	// ObjectiveViolation: a run breaks a property of the suite; the worst
	// breaks the most.
	ObjectiveViolation Objective = "violation"
	// ObjectiveRegret: the strategy costs more than hindsight; the worst
	// has the highest ratio.
	ObjectiveRegret Objective = "regret"
	// ObjectiveVersus: the strategy costs more than the --against strategy
	// on the same script; the worst has the highest ratio.
	ObjectiveVersus Objective = "versus"
	// ObjectiveOutcome: the strategy fails where --against succeeds; the
	// worst has the highest ratio of costs.
	ObjectiveOutcome Objective = "outcome"
)

// Objectives lists the objectives, in the order docs/explore.md gives.
func Objectives() []Objective {
	return []Objective{ObjectiveViolation, ObjectiveRegret, ObjectiveVersus, ObjectiveOutcome}
}

// ParseObjective reads an objective's name.
func ParseObjective(s string) (Objective, error) {
	for _, o := range Objectives() {
		if string(o) == s {
			return o, nil
		}
	}
	return "", fmt.Errorf("%q is not an objective: use violation, regret, versus or outcome", s)
}

// NeedsAgainst reports whether the objective compares with --against.
func (o Objective) NeedsAgainst() bool { return o == ObjectiveVersus || o == ObjectiveOutcome }

// Case is one script, run and judged.
type Case struct {
	// Index is the script's number in the search (Generate's i).
	Index    int
	Scenario *scenario.Scenario
	// Result is the explored strategy's run.
	Result ledger.Result
	// Reference is what the strategy is measured against: --against's
	// run (versus, outcome) or hindsight's (regret); nil for violation.
	Reference *ledger.Result
	// Plan is hindsight's plan, for regret.
	Plan *Plan
	// Broken lists the properties the run broke (violation).
	Broken []Broken
	// Holds is whether the objective holds; Score ranks the cases where
	// it does: properties broken, or the ratio of costs.
	Holds bool
	Score float64
	// Mismatch is whether a run's record disagreed with the mock's
	// journal (a harness or adapter bug, ledger.ErrMismatch): the script
	// is left out of every objective but violation, where it breaks
	// LedgerEqualsJournal.
	Mismatch bool
}

// judge runs s (and the reference the objective needs) on sc, which the
// bench serves, and scores the objective.
func (x *explorer) judge(ctx context.Context, b *harness.Bench, sc *scenario.Scenario, i int) (Case, error) {
	c := Case{Index: i, Scenario: sc}
	r, err := b.Run(ctx, sc, x.opts.Strategy)
	mismatch := errors.Is(err, ledger.ErrMismatch)
	if err != nil && !mismatch {
		return c, err
	}
	c.Result = r
	cost := CostOf(r)
	switch {
	case x.opts.Objective == ObjectiveViolation:
		if mismatch {
			c.Broken = append(c.Broken, Broken{Property: "LedgerEqualsJournal", Detail: err.Error()})
		}
		c.Broken = append(c.Broken, Violations(sc, x.opts.Strategy, r)...)
		c.Holds, c.Score = len(c.Broken) > 0, float64(len(c.Broken))
		return c, nil
	case mismatch: // the figures cannot be trusted: the script is left out
		c.Mismatch = true
		return c, nil
	}
	switch x.opts.Objective {
	case ObjectiveRegret:
		if len(sc.Tools) > 0 { // hindsight plays plain turns only
			return c, nil
		}
		h, err := Hindsight(ctx, b, sc, x.opts.HindsightBound)
		if err != nil {
			return c, err
		}
		if !h.Cost.Success {
			return c, nil // no plan found within the bound: no regret to measure
		}
		ref := h.Result(sc.Name)
		c.Reference, c.Plan = &ref, &h.Plan
		c.Score = cost.Ratio(h.Cost)
		c.Holds = cost.Compare(h.Cost) > 0
		return c, nil
	}
	ra, err := b.Run(ctx, sc, *x.opts.Against)
	if errors.Is(err, ledger.ErrMismatch) {
		c.Mismatch = true
		return c, nil
	}
	if err != nil {
		return c, err
	}
	c.Reference = &ra
	ref := CostOf(ra)
	c.Score = cost.Ratio(ref)
	if x.opts.Objective == ObjectiveOutcome {
		c.Holds = !cost.Success && ref.Success
	} else {
		c.Holds = cost.Compare(ref) > 0
	}
	return c, nil
}

// worse reports whether case a ranks above b: it holds and b does not, or
// a higher score, ties going to the lower index.
func worse(a, b Case) bool {
	switch {
	case a.Holds != b.Holds:
		return a.Holds
	case a.Score != b.Score:
		return a.Score > b.Score
	}
	return a.Index < b.Index
}
