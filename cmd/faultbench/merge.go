package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/ledger"

	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

type mergeFlags struct {
	scenarios []string
	output    outputFlags
	gate      gateFlags
}

func newMergeCmd(stdout io.Writer) *cobra.Command {
	var f mergeFlags
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Join the JSON reports of run --shard K/N into the report of the whole run",
		Long: `Join the JSON reports of faultbench run --shard K/N --format json into one
report, identical to the unsharded run's: every shard 1..N of one run must be
there, each once, in any order. Reports that are not shards are joined in the
order given. The merged report is written as JSON unless --format says
otherwise; --scenarios gives the scenario files (for descriptions and for
--check's budgets), --baseline compares the whole run with a saved one.
Without --scenarios the report has no descriptions and no budgets, and
merge says so on standard error.

` + viewHelp(),
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd.Context(), stdout, cmd.ErrOrStderr(), f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.output.format, "format", "json", "output format: "+joinFormats())
	fl.StringVar(&f.output.out, "out", "", "write the report to FILE instead of standard output")
	fl.StringSliceVar(&f.scenarios, "scenarios", nil, "scenario files or folders the run used (for --check and descriptions)")
	f.gate.register(fl)
	f.output.registerView(fl)
	return cmd
}

func runMerge(ctx context.Context, stdout, stderr io.Writer, f mergeFlags, files []string) error {
	if err := f.output.validate(); err != nil {
		return err
	}
	if f.gate.check && len(f.scenarios) == 0 {
		return bad(fmt.Errorf("--check needs --scenarios: the budgets are in the scenario files"))
	}
	budget := newReadBudget()
	g, err := f.gate.prepare(ctx, budget)
	if err != nil {
		return err
	}
	var scs []*scenario.Scenario
	if len(f.scenarios) > 0 {
		if scs, _, err = loadScenarios(io.Discard, f.scenarios); err != nil {
			return err
		}
	}
	if err := checkOut("--out", f.output.out); err != nil {
		return err
	}
	parts := make([]reports.Part, 0, len(files))
	var stopped []string
	for _, name := range files {
		rep, shard, err := readReport(ctx, budget, "", name, f.gate.allowIncomplete)
		if err != nil {
			return err
		}
		if rep.Stopped != nil {
			stopped = append(stopped, name)
		}
		parts = append(parts, reports.Part{Name: name, Report: rep, Shard: shard})
	}
	rep, err := reports.Merge(parts)
	if err != nil {
		return bad(err)
	}
	if len(stopped) > 0 { // taken with --allow-incomplete: so is the merge
		rep.Stopped = &ledger.Stop{Cause: "merged from incomplete " + strings.Join(stopped, ", "), Finished: len(rep.Results), Runs: len(rep.Results)}
		for _, p := range parts {
			if p.Report.Stopped != nil {
				rep.Stopped.Runs += p.Report.Stopped.Runs - p.Report.Stopped.Finished
			}
		}
	}

	var scNames, stNames []string
	seen := map[[2]string]bool{}
	for _, r := range rep.Results {
		if k := [2]string{"scenario", r.Scenario}; !seen[k] {
			seen[k] = true
			scNames = append(scNames, r.Scenario)
		}
		if k := [2]string{"strategy", r.Strategy}; !seen[k] {
			seen[k] = true
			stNames = append(stNames, r.Strategy)
		}
	}
	if err := f.output.checkView(scNames, stNames); err != nil {
		return err
	}
	opts := reports.Options{Descriptions: map[string]string{}}
	if scs != nil {
		for _, sc := range scs {
			opts.Descriptions[sc.Name] = sc.Description
		}
		if opts.Violations, err = budgets(scs, rep); err != nil {
			return err
		}
		opts.Checked = true
		opts.Expectations = expectations(scs, rep)
	} else {
		fmt.Fprintln(stderr, "faultbench merge: no --scenarios given: descriptions, budgets and expected outcomes were not checked")
	}
	return publish(ctx, stdout, stderr, f.output, g, rep, opts)
}
