package explore

import (
	"context"
	"fmt"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// AddHindsight computes hindsight for every plain turn of scs that rep
// ran, adds its row (strategy HindsightName, its plan in Plan, regret 1)
// after the results, and sets every run's Regret on those scenarios: its
// cost's scalar over hindsight's (Cost.Ratio). Agent turns and fleets
// (a workload: many turns, where hindsight plans one) get neither.
// The scenarios are served on a mock of their own, one at a time.
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
		costs[sc.Name] = h.Cost
		row := h.Result(sc.Name)
		row.Plan, row.Regret = h.Plan.String(), 1
		if h.Bounded {
			row.Plan += " (the search's bound was reached: a cheaper plan may exist)"
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
