package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
	"github.com/faultbench/faultbench/scenario"
)

// strategyDir is the project's folder of strategy files, beside its
// folder of scenarios (strategies/ beside scenarios/): the names of the
// strategies in it may key a budget too.
const strategyDir = "strategies"

// checkBudgetNames makes a budget keyed by an unknown strategy bad input:
// a name that is none of the presets, of the strategies given (the run's)
// and of the strategy files in a strategies/ folder beside the scenarios'
// folder would never be checked.
func checkBudgetNames(scs []*scenario.Scenario, given []recovery.Strategy) error {
	// grade.Strategy keys the budget of the client that `faultbench grade`
	// runs; run and validate accept it, grade checks it.
	known := append(presetNames(), recovery.Aliases()...)
	known = append(known, grade.Strategy)
	for _, s := range given {
		known = append(known, s.Name)
	}
	var dirs []string
	for _, sc := range scs {
		if d := filepath.Join(filepath.Dir(filepath.Dir(sc.Path)), strategyDir); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		if info, err := os.Stat(d); err != nil || !info.IsDir() {
			continue
		}
		// A folder that does not load adds no names; a budget keyed by one
		// of them is then reported, which says where to look.
		if ss, err := strategyfile.LoadDir(d); err == nil {
			for _, s := range ss {
				known = append(known, s.Name)
			}
		}
	}
	slices.Sort(known)
	known = slices.Compact(known)
	err := scenario.CheckStrategyNames(scs, func(name string) bool { return slices.Contains(known, name) }, strings.Join(known, ", "))
	if err != nil {
		return bad(err)
	}
	return nil
}
