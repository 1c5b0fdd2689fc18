package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/explore"
	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

// defaultRunTimeout bounds a whole run in wall-clock time: 30 minutes. The
// simulation's own time is virtual; this bounds the process, so that a
// run cannot hold a CI job for days.
const defaultRunTimeout = 30 * time.Minute

// runProgress, when set, hears of every run that ends, as a progress bar
// does: a test's seam to interrupt a run part-way.
var runProgress func(done, total int)

type runFlags struct {
	strategies string
	seed       uint64
	parallel   int
	shard      string
	timeout    time.Duration
	hindsight  bool
	prices     string
	output     outputFlags
	gate       gateFlags
	profile    profileFlags
}

func newRunCmd(stdout io.Writer) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [PATH...]",
		Short: "Run scenarios (files or folders; default scenarios/) against strategies and print what each cost",
		Long: `Run scenarios (files or folders; default scenarios/) against strategies and print what each cost.

Budgets in the scenarios' expect blocks are always checked and shown in the
report; --check makes a broken one exit 1. --baseline compares with a saved
--format json report and exits 1 when a cost grew by more than --max-regress.
--shard K/N runs the K-th of N slices of the scenario × strategy grid; join
the shards' JSON with faultbench merge. --prices FILE prices the models it
names, over the scenarios' own prices (docs/cost.md): a YAML mapping such as
"sonnet: {input: 3, output: 15}", in dollars per million tokens, at most 64 KiB.

` + viewHelp(),
		RunE: func(cmd *cobra.Command, args []string) error {
			return profiled(f.profile, func() error { return runRun(cmd.Context(), stdout, cmd.ErrOrStderr(), f, args) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.strategies, "strategies", strings.Join(defaultNames(), ","), "comma-separated strategies to compare (default: every preset but "+strings.Join(namedOnly, ", ")+", which run when named)")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of every run's random source")
	fl.StringVar(&f.output.format, "format", "table", "output format: "+strings.Join(reports.Formats(), "|"))
	fl.StringVar(&f.output.out, "out", "", "write the report to FILE instead of standard output")
	fl.IntVar(&f.parallel, "parallel", 0, "runs at once (0: one per CPU)")
	fl.StringVar(&f.shard, "shard", "", "run only slice K of N of the scenario × strategy grid, as K/N")
	f.output.registerView(fl)
	fl.BoolVar(&f.hindsight, "hindsight", false, "add hindsight's row to each plain turn and each run's regret (cost ÷ hindsight's; docs/explore.md)")
	fl.StringVar(&f.prices, "prices", "", "YAML file of per-model prices (input, output, cache_write_5m, cache_write_1h, cache_read per million tokens) over the scenarios' own")
	fl.DurationVar(&f.timeout, "timeout", defaultRunTimeout, "wall-clock time the whole run may take; past it the run stops and reports what finished (0: none)")
	f.gate.register(fl)
	f.profile.register(fl)
	return cmd
}

// loadScenarios reads the scenario files and folders of args. With none, it
// reads scenarios/, or, where there is no such folder, the suite built
// into the binary (saying so on stderr); builtIn tells which.
func loadScenarios(stderr io.Writer, args []string) (scs []*scenario.Scenario, builtIn bool, err error) {
	if useBuiltIn(args) {
		fmt.Fprint(stderr, builtInNote)
		scs, err := builtInScenarios()
		return scs, true, err
	}
	if len(args) == 0 {
		args = []string{"scenarios"}
	}
	scs, err = scenario.Load(args...)
	if err != nil {
		return nil, false, bad(err)
	}
	if len(scs) == 0 {
		return nil, false, bad(fmt.Errorf("no scenario files in %s", strings.Join(args, ", ")))
	}
	return scs, false, nil
}

// runnable leaves out the mock-only scenarios (those without a turn),
// naming them on stderr: they are for serve and grade, and run has nothing
// to send in them. None left is a usage error.
func runnable(stderr io.Writer, scs []*scenario.Scenario) ([]*scenario.Scenario, error) {
	var keep []*scenario.Scenario
	var skipped []string
	for _, sc := range scs {
		if sc.MockOnly() {
			skipped = append(skipped, sc.Path)
			continue
		}
		keep = append(keep, sc)
	}
	if len(skipped) == 0 {
		return scs, nil
	}
	if len(keep) == 0 {
		return nil, bad(fmt.Errorf("%s: mock-only (no turn section): nothing to run; serve it with faultbench serve", strings.Join(skipped, ", ")))
	}
	fmt.Fprintf(stderr, "faultbench: skipping %d mock-only scenario(s) with no turn to run (serve them): %s\n", len(skipped), strings.Join(skipped, ", "))
	return keep, nil
}

func runRun(ctx context.Context, stdout, stderr io.Writer, f runFlags, args []string) error {
	if err := f.output.validate(); err != nil {
		return err
	}
	if f.parallel < 0 {
		return bad(fmt.Errorf("--parallel: must be 0 or more, got %d", f.parallel))
	}
	if err := checkTimeout("--timeout", f.timeout); err != nil {
		return err
	}
	if f.hindsight && f.shard != "" {
		return bad(fmt.Errorf("--hindsight: not with --shard (hindsight's rows would not merge into the unsharded report)"))
	}
	var shard harness.Shard
	if f.shard != "" {
		s, err := harness.ParseShard(f.shard)
		if err != nil {
			return bad(fmt.Errorf("--shard: %w", err))
		}
		shard = s
	}
	g, err := f.gate.prepare(ctx, newReadBudget())
	if err != nil {
		return err
	}
	strategies, err := strategiesFrom(f.strategies)
	if err != nil {
		return bad(err)
	}
	scs, builtIn, err := loadScenarios(stderr, args)
	if err != nil {
		return err
	}
	if scs, err = runnable(stderr, scs); err != nil {
		return err
	}
	if err := applyPrices(f.prices, scs); err != nil {
		return err
	}
	if err := checkBudgetNames(stderr, scs, builtIn, strategies); err != nil {
		return err
	}
	scNames := make([]string, len(scs))
	for i, sc := range scs {
		scNames[i] = sc.Name
	}
	if err := f.output.checkView(scNames, names(strategies)); err != nil {
		return err
	}
	if err := checkOut("--out", f.output.out); err != nil {
		return err
	}

	ctx, cancel := withTimeout(ctx, f.timeout)
	defer cancel()
	opts := harness.Options{Seed: f.seed, Parallel: f.parallel, Shard: shard}
	var bar *progressBar
	if isTerminal(stderr) {
		bar = newProgressBar(stderr)
	}
	if bar != nil || runProgress != nil {
		opts.Progress = func(done, total int) {
			if bar != nil {
				bar.update(done, total)
			}
			if runProgress != nil {
				runProgress(done, total)
			}
		}
	}
	rep, runErr := harness.Run(ctx, scs, strategies, opts)
	if bar != nil {
		bar.finish()
	}
	if ctx.Err() != nil && slices.ContainsFunc(rep.Results, cut) { // Ctrl-C or --timeout
		return stopped(ctx, stdout, f, rep, scs, strategies)
	}

	if f.hindsight {
		if err := explore.AddHindsight(ctx, scs, &rep, explore.DefaultBound); err != nil {
			return fmt.Errorf("run: %w", err)
		}
	}
	violations, err := budgets(scs, rep)
	if err != nil {
		return err
	}
	descriptions := map[string]string{}
	for _, sc := range scs {
		descriptions[sc.Name] = sc.Description
	}
	ropts := reports.Options{Strategies: names(strategies), Descriptions: descriptions, Violations: violations, Checked: true,
		Expectations: expectations(scs, rep)}
	if f.shard != "" {
		jobs := len(scs) * len(strategies)
		first, _ := shard.Bounds(jobs)
		ropts.Shard = &reports.Shard{Index: shard.Index, Count: shard.Count, First: first, Jobs: jobs}
	}
	verdict := publish(ctx, stdout, stderr, f.output, g, rep, ropts)
	if runErr != nil {
		return fmt.Errorf("run: %w", runErr)
	}
	return verdict
}

// stopped reports a run that ended early: the runs that finished, in
// the format asked for, marked incomplete (the JSON says "complete":
// false and what stopped it), and what stopped it. The runs cut short are left
// out; their ledgers and the mock's journal disagree only because they
// were cut. Budgets are not checked: the grid is not whole.
func stopped(ctx context.Context, stdout io.Writer, f runFlags, rep ledger.Report,
	scs []*scenario.Scenario, strategies []recovery.Strategy) error {
	total := len(rep.Results)
	finished := rep.Results[:0:0]
	for _, r := range rep.Results {
		if !cut(r) {
			finished = append(finished, r)
		}
	}
	rep.Results = finished
	cause := stopCause(ctx, f.timeout)
	rep.Stopped = stopOf(cause, len(finished), total)
	descriptions := map[string]string{}
	for _, sc := range scs {
		descriptions[sc.Name] = sc.Description
	}
	var buf bytes.Buffer
	if err := reports.Write(&buf, f.output.format, rep, reports.Options{Strategies: names(strategies), Descriptions: descriptions}); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	if err := emit(stdout, f.output.out, buf.Bytes()); err != nil {
		return err
	}
	return fmt.Errorf("run stopped, %w: %d of %d runs finished, and the report shows only those", cause, len(finished), total)
}

// applyPrices gives the scenarios' models the prices of the --prices
// file, when one is named; a bad file, or one naming a model that no
// scenario declares, is bad input.
func applyPrices(path string, scs []*scenario.Scenario) error {
	if path == "" {
		return nil
	}
	f, err := scenario.LoadPrices(path)
	if err != nil {
		return bad(fmt.Errorf("--prices: %w", err))
	}
	if err := f.Apply(scs); err != nil {
		return bad(fmt.Errorf("--prices: %w", err))
	}
	return nil
}

// cut reports a run that the end of the run's context cut short (or never
// started).
func cut(r ledger.Result) bool { return r.Outcome == ledger.OutcomeCancelled || r.Scenario == "" }

func joinFormats() string { return strings.Join(reports.Formats(), ", ") }

func names(strategies []recovery.Strategy) []string {
	out := make([]string, len(strategies))
	for i, s := range strategies {
		out[i] = s.Name
	}
	return out
}
