package harness

import (
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// prices is the price list of a scenario's models (docs/cost.md), their
// cache prices resolved; nil when no model has a price, so that the
// results of an unpriced scenario carry no dollars.
func prices(sc *scenario.Scenario) ledger.Prices {
	var out ledger.Prices
	for name, m := range sc.Models {
		if m.Price == nil {
			continue
		}
		if out == nil {
			out = ledger.Prices{}
		}
		p := m.Price.Resolved()
		out[name] = ledger.Price{Input: p.Input, Output: p.Output, CacheWrite5m: p.CacheWrite5m, CacheWrite1h: p.CacheWrite1h, CacheRead: p.CacheRead}
	}
	return out
}
