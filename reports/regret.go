package reports

import (
	"slices"
	"strconv"

	"github.com/faultbench/faultbench/ledger"
)

// regretHeader are the summary's columns when runs carry a regret
// (`faultbench run --hindsight`).
var regretHeader = []string{"worst regret", "median regret"}

// regretMetric is the scenario table's row of regrets, shown when runs
// carry one.
var regretMetric = metric{"regret", func(r ledger.Result) string { return formatRegret(r.Regret) }}

// formatRegret writes a run's cost over hindsight's, "2.35x", or
// [noValue] when it has none.
func formatRegret(v float64) string {
	if v <= 0 {
		return noValue
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + "x"
}

// hasRegret reports whether any result carries a regret.
func hasRegret(g grouped) bool {
	for _, r := range g.cells {
		if r.Regret > 0 {
			return true
		}
	}
	return false
}

// regretCells are one strategy's worst and median regret over the
// scenarios where it has one (the median of an even count is the mean of
// the middle two).
func regretCells(g grouped, strategy string) []string {
	var vs []float64
	for _, sc := range g.scenarios {
		if r, ok := g.cell(sc, strategy); ok && r.Regret > 0 {
			vs = append(vs, r.Regret)
		}
	}
	if len(vs) == 0 {
		return []string{noValue, noValue}
	}
	slices.Sort(vs)
	median := vs[len(vs)/2]
	if len(vs)%2 == 0 {
		median = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	return []string{formatRegret(vs[len(vs)-1]), formatRegret(median)}
}
