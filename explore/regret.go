package explore

import (
	"context"
	"fmt"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// NoPlan is hindsight's plan on a scenario where its search found none
// that succeeds within its bound: such a scenario gets no regret, as
// there is nothing to measure against.
const NoPlan = "no plan found within the bound"

// AddHindsight computes hindsight for every plain turn of scs that rep
// ran, adds its row (strategy HindsightName, its plan in Plan) after the
// results, and sets every run's Regret on those scenarios: its cost's
// scalar over the cheapest known (Cost.Ratio), which is hindsight's —
// or, when a run that succeeded cost less by the scalar than the plan
// hindsight found, that run's, said in the plan, so that no regret is
// below 1. Where hindsight finds no plan within the bound, its row says
// NoPlan and no run gets a regret. Agent turns and fleets (a workload:
// many turns, where hindsight plans one) get neither. The scenarios are
// served on a mock of their own, one at a time.
func AddHindsight(ctx context.Context, scs []*scenario.Scenario, rep *ledger.Report, bound Bound) error {
	ran := map[string]bool{}
	for _, r := range rep.Results {
		ran[r.Scenario] = true
	}
	b, err := harness.NewBench(rep.Seed)
	if err != nil {
		return err
	}
	defer b.Close()
	costs := map[string]Cost{}
	var rows []ledger.Result
	for _, sc := range scs {
		if len(sc.Tools) > 0 || !sc.Workload.IsZero() || !ran[sc.Name] {
			continue
		}
		h, err := hindsightOf(ctx, b, sc, bound)
		if err != nil {
			return err
		}
		row := h.Result(sc.Name)
		if !h.Cost.Success {
			row.Plan = NoPlan
			rows = append(rows, row)
			continue
		}
		best, who := h.Cost, ""
		for _, r := range rep.Results {
			if c := CostOf(r); r.Scenario == sc.Name && c.Success && c.Scalar() < best.Scalar() {
				best, who = c, r.Strategy
			}
		}
		costs[sc.Name] = best
		row.Plan, row.Regret = h.Plan.String(), h.Cost.Ratio(best)
		if h.Bounded {
			row.Plan += " (the search's bound was reached: a cheaper plan may exist)"
		}
		if who != "" {
			row.Plan += fmt.Sprintf(" (%s cost less by the regret's measure: regrets are against its cost)", who)
		}
		rows = append(rows, row)
	}
	for i, r := range rep.Results {
		if c, ok := costs[r.Scenario]; ok {
			rep.Results[i].Regret = CostOf(r).Ratio(c)
		}
	}
	rep.Results = append(rep.Results, rows...)
	return nil
}

func hindsightOf(ctx context.Context, b *harness.Bench, sc *scenario.Scenario, bound Bound) (Answer, error) {
	if err := b.Add(sc); err != nil {
		return Answer{}, fmt.Errorf("hindsight: %w", err)
	}
	defer b.Remove(sc.Name)
	return Hindsight(ctx, b, sc, bound)
}
