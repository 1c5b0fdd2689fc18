package harness

import (
	"fmt"
	"strconv"
	"time"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// Violation is one broken budget: the figure a run produced against what
// its scenario expected.
type Violation struct {
	Scenario string
	Strategy string
	Field    string // as in the expect block: outcome, attempts, wait, ...
	Budget   string // as written: "<= 4", "< 3s", "success"
	Got      string // the figure, in the budget's unit: "6", "7.5s", "failed"
}

func (v Violation) String() string {
	return fmt.Sprintf("%s × %s: %s is %s, expected %s", v.Scenario, v.Strategy, v.Field, v.Got, v.Budget)
}

// Check compares each result with its scenario's expect block and returns
// every budget it breaks, in the order of the results and, within one, of
// the fields of [scenario.Expect]. Results of strategies the scenario sets
// no budget for, and of scenarios not given, are free. An expect block that
// does not parse is an error naming the scenario's file; a loaded scenario's
// always parses.
func Check(scenarios []*scenario.Scenario, results []ledger.Result) ([]Violation, error) {
	byName := make(map[string]*scenario.Scenario, len(scenarios))
	for _, sc := range scenarios {
		byName[sc.Name] = sc
	}
	var out []Violation
	for _, r := range results {
		sc := byName[r.Scenario]
		if sc == nil {
			continue
		}
		exp, ok := sc.Expect[r.Strategy]
		if !ok {
			continue
		}
		vs, err := checkOne(exp, r)
		if err != nil {
			return nil, fmt.Errorf("%s: expect.%s: %w", sc.Path, r.Strategy, err)
		}
		out = append(out, vs...)
	}
	return out, nil
}

func checkOne(exp scenario.Expect, r ledger.Result) ([]Violation, error) {
	var out []Violation
	broken := func(field, budget, got string) {
		out = append(out, Violation{Scenario: r.Scenario, Strategy: r.Strategy, Field: field, Budget: budget, Got: got})
	}
	if exp.Outcome != "" {
		m, err := scenario.ParseOutcome(exp.Outcome)
		if err != nil {
			return nil, err
		}
		if !m.Holds(string(r.Outcome)) {
			broken("outcome", exp.Outcome, string(r.Outcome))
		}
	}
	budgets, err := exp.Budgets()
	if err != nil {
		return nil, err
	}
	for _, b := range budgets {
		got, ok := figure(r, b.Field)
		if !ok {
			return nil, fmt.Errorf("%s: no such figure in a result", b.Field)
		}
		if !b.Holds(got) {
			broken(b.Field, b.Raw, show(got, durationField(b.Field)))
		}
	}
	return out, nil
}

// durationField reports whether an expect field is a time, in milliseconds.
func durationField(field string) bool {
	return field == "wait" || field == "makespan" || field == "p99"
}

// figure is the result's value of an expect field; wait, makespan and p99
// are in milliseconds. A workload's figure (makespan, p99,
// wasted_input_tokens) is there only in a workload's result; attempts is
// the total of a workload's turns.
func figure(r ledger.Result, field string) (float64, bool) {
	if w := r.Workload; w != nil {
		switch field {
		case "makespan":
			return float64(w.MakespanMS), true
		case "p99":
			return float64(w.P99MS), true
		case "wasted_input_tokens":
			return float64(w.WastedInputTokens), true
		case "attempts":
			return float64(w.Attempts), true
		}
	}
	switch field {
	case "attempts":
		return float64(r.Attempts), true
	case "wait":
		return float64(r.WaitMS), true
	case "submitted_input_tokens":
		return float64(r.SubmittedInputTokens), true
	case "repair_input_tokens":
		return float64(r.RepairInputTokens), true
	case "repair_calls":
		return float64(r.RepairCalls), true
	case "fallbacks":
		return float64(r.Fallbacks), true
	case "escalations":
		return float64(r.Escalations), true
	case "compactions":
		return float64(r.Compactions), true
	case "steps":
		return float64(r.Steps), true
	}
	var c ledger.Cost // a run without one billed nothing
	if r.Cost != nil {
		c = *r.Cost
	}
	switch field {
	case "billed_usd":
		return c.BilledUSD, true
	case "cache_hit_ratio":
		return c.CacheHitRatio, true
	case "cache_read_tokens":
		return float64(c.CacheReadTokens), true
	case "cache_write_tokens":
		return float64(c.CacheWriteTokens), true
	}
	return 0, false
}

// show writes a figure for a person: a time ("7.5s", from milliseconds) or
// a plain number.
func show(v float64, duration bool) string {
	if duration {
		return (time.Duration(v) * time.Millisecond).String()
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
