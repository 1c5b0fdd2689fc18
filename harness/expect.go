package harness

import (
	"fmt"
	"strings"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// Violation is one broken budget: the figure a run produced against what
// its scenario expected.
type Violation struct {
	Scenario string
	Strategy string
	Field    string
	Budget   string
	Got      string
}

func (v Violation) String() string {
	return fmt.Sprintf("%s × %s: %s is %s, expected %s", v.Scenario, v.Strategy, v.Field, v.Got, v.Budget)
}

// Check compares each result with its scenario's expect block and returns
// every budget it breaks. Results of strategies the scenario sets no budget
// for are free.
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
	if o := strings.TrimSpace(exp.Outcome); o != "" {
		want, negate := o, false
		switch {
		case strings.HasPrefix(o, "!="):
			want, negate = strings.TrimSpace(o[2:]), true
		case strings.HasPrefix(o, "=="):
			want = strings.TrimSpace(o[2:])
		}
		if (string(r.Outcome) == want) == negate {
			broken("outcome", o, string(r.Outcome))
		}
	}
	figures := []struct {
		field, budget string
		got           float64
		show          string
	}{
		{"attempts", exp.Attempts, float64(r.Attempts), fmt.Sprint(r.Attempts)},
		{"wait", exp.Wait, float64(r.WaitMS), fmt.Sprintf("%dms", r.WaitMS)},
		{"submitted_input_tokens", exp.SubmittedInputTokens, float64(r.SubmittedInputTokens), fmt.Sprint(r.SubmittedInputTokens)},
		{"repair_input_tokens", exp.RepairInputTokens, float64(r.RepairInputTokens), fmt.Sprint(r.RepairInputTokens)},
		{"repair_calls", exp.RepairCalls, float64(r.RepairCalls), fmt.Sprint(r.RepairCalls)},
		{"fallbacks", exp.Fallbacks, float64(r.Fallbacks), fmt.Sprint(r.Fallbacks)},
		{"escalations", exp.Escalations, float64(r.Escalations), fmt.Sprint(r.Escalations)},
		{"compactions", exp.Compactions, float64(r.Compactions), fmt.Sprint(r.Compactions)},
		{"steps", exp.Steps, float64(r.Steps), fmt.Sprint(r.Steps)},
	}
	for _, f := range figures {
		if strings.TrimSpace(f.budget) == "" {
			continue
		}
		b, err := scenario.ParseBudget(f.budget)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.field, err)
		}
		if !b.Holds(f.got) {
			broken(f.field, f.budget, f.show)
		}
	}
	return out, nil
}
