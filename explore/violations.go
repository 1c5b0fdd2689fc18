package explore

import (
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/proptest/property"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// Broken is a property of docs/properties.md that one run broke.
type Broken struct {
	Property string
	Detail   string
}

// Violations lists the properties of the default suite (property.Default,
// in the order docs/properties.md gives) that r, a run of s on sc, breaks.
// LedgerEqualsJournal is the harness's own: a run whose record disagrees
// with the journal is an error, reported as such (judge). The properties
// that need two runs or a fleet (SameSeedSameLedger, the fleet ones) are
// not checked per run.
func Violations(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) []Broken {
	var out []Broken
	for _, p := range property.Default() {
		if err := p.Check(sc, s, r); err != nil {
			out = append(out, Broken{Property: p.Name, Detail: err.Error()})
		}
	}
	return out
}
