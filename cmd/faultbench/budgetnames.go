package main

import (
	"fmt"
	"io"
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
// strategies in it are known names for budgets (docs/scenario-format.md).
const strategyDir = "strategies"

// checkBudgetNames checks the names that key the scenarios' budgets
// against the known ones: the presets, the strategies given (the run's,
// or validate's --strategies), the strategy files in a strategies/ folder
// beside each scenarios' folder, and, for the built-in suite, its own
// strategy files. A name a typo away from a known one is bad input, with
// "did you mean"; any other unknown name is said once on stderr as not
// checked in this run, and the run goes on.
func checkBudgetNames(stderr io.Writer, scs []*scenario.Scenario, builtIn bool, given []recovery.Strategy) error {
	// grade.Strategy keys the budget of the client that `faultbench grade`
	// runs; run and validate accept it, grade checks it.
	known := append(presetNames(), recovery.Aliases()...)
	known = append(known, grade.Strategy)
	for _, s := range given {
		known = append(known, s.Name)
	}
	if builtIn {
		ss, err := builtInStrategies()
		if err != nil {
			return err
		}
		for _, s := range ss {
			known = append(known, s.Name)
		}
	} else {
		known = append(known, besideNames(scs)...)
	}
	slices.Sort(known)
	known = slices.Compact(known)
	unchecked, err := scenario.CheckStrategyNames(scs, known)
	if err != nil {
		return bad(err)
	}
	if len(unchecked) > 0 {
		fmt.Fprintf(stderr, "faultbench: not checked in this run: the budgets for %s "+
			"(no strategy of that name here; give its file to --strategies to check them)\n", strings.Join(unchecked, ", "))
	}
	return nil
}

// besideNames are the names of the strategies in a strategies/ folder
// beside the scenarios' folders.
func besideNames(scs []*scenario.Scenario) []string {
	var dirs, out []string
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
		// of them is then not checked, and said so.
		ss, _ := strategyfile.LoadDir(d)
		for _, s := range ss {
			out = append(out, s.Name)
		}
	}
	return out
}
