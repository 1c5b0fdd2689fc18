package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

// gateFlags are what makes a command fail a build: broken budgets and
// regressions against a saved run. run and merge share them.
type gateFlags struct {
	check           bool
	baseline        string
	maxRegress      string
	allowIncomplete bool
	allowMissing    bool
}

func (g *gateFlags) register(fl *pflag.FlagSet) {
	fl.BoolVar(&g.check, "check", false, "exit 1 when a scenario's expect budget is broken, listing each with its figure")
	fl.StringVar(&g.baseline, "baseline", "", "compare with a saved JSON report and exit 1 on a regression")
	fl.StringVar(&g.maxRegress, "max-regress", "0%", "how much a cost may grow over --baseline before it is a regression")
	fl.BoolVar(&g.allowMissing, "allow-missing", false, "with --baseline: pass although results of the baseline are not in this run (a scenario or strategy removed)")
	fl.BoolVar(&g.allowIncomplete, "allow-incomplete", false, "take a report a stopped run wrote (\"complete\": false) as --baseline or merge part")
}

// gate is gateFlags read and checked, before anything runs.
type gate struct {
	check     bool
	path      string         // of the baseline
	baseline  *ledger.Report // nil without --baseline
	tolerance float64
	// allowMissing passes a run that lacks some of the baseline's results.
	allowMissing bool
}

// prepare loads the baseline, within b, and reads the tolerance; a
// problem with either is bad input.
func (g gateFlags) prepare(ctx context.Context, b *readBudget) (gate, error) {
	out := gate{check: g.check, path: g.baseline, allowMissing: g.allowMissing}
	tol, err := reports.ParseTolerance(g.maxRegress)
	if err != nil {
		return gate{}, bad(fmt.Errorf("--max-regress: %w", err))
	}
	out.tolerance = tol
	if g.baseline == "" {
		return out, nil
	}
	rep, _, err := readReport(ctx, b, "--baseline ", g.baseline, g.allowIncomplete)
	if err != nil {
		return gate{}, err
	}
	out.baseline = &rep
	return out, nil
}

// outputFlags say where a report goes, in what format, and how much of it
// the text table shows.
type outputFlags struct {
	format      string
	out         string
	allRows     bool
	summaryOnly bool
	details     bool
	scenarios   []string
	reference   string
}

// viewHelp says what the text table shows and how its verdicts rank the
// strategies, for the help of run and merge, wrapped at 78 columns.
func viewHelp() string {
	text := `The table opens with the comparison: per strategy over the single-turn
scenarios, how often it reached the best outcome the scenario allows (` + reports.BestOutcomeRule + `),
its costs, and the geometric mean of its per-scenario ratios to the reference
strategy (--reference; default classify, or blind when classify did not run);
then the fleets' own summary. A grid of scenarios × strategies follows, an
outcome and attempts per cell, then the scenarios where the strategies differ,
each with its verdict line. A single turn's verdict ranks ` + reports.TurnRule + `;
a fleet's ranks ` + reports.FleetRule + `. Where a run was billed (its models have
prices: docs/cost.md) the dollars rank right after success (turns succeeded),
and the summary ranks the strategies by the dollars billed. --details prints every scenario's cost
table, --scenario NAME (repeatable) the named ones'; a cost table leaves out
rows that are zero for every strategy (--all-rows keeps them).
--summary-only prints the summaries alone.`
	return strings.Join(wrapWords(text, 78), "\n")
}

// registerView adds the flags that shape the text table.
func (o *outputFlags) registerView(fl *pflag.FlagSet) {
	fl.BoolVar(&o.allRows, "all-rows", false, "table: keep the rows that are zero for every strategy")
	fl.BoolVar(&o.summaryOnly, "summary-only", false, "table, markdown: print the summaries alone, without the grid and the scenarios")
	fl.BoolVar(&o.details, "details", false, "table: print every scenario's cost table")
	fl.StringArrayVar(&o.scenarios, "scenario", nil, "table: print this scenario's cost table (repeatable)")
	fl.StringVar(&o.reference, "reference", "", "strategy the summary's ratios are against (default classify, or blind when classify did not run)")
}

// apply copies the view flags into the report options.
func (o outputFlags) apply(opts *reports.Options) {
	opts.AllRows = o.allRows
	opts.SummaryOnly = o.summaryOnly
	opts.Details = o.details
	opts.Scenarios = o.scenarios
	opts.Reference = o.reference
}

// checkView checks the names --scenario and --reference give against the
// run's scenarios and strategies: an unknown one is bad input.
func (o outputFlags) checkView(scenarios, strategies []string) error {
	for _, name := range o.scenarios {
		if !slices.Contains(scenarios, name) {
			return bad(fmt.Errorf("--scenario: no scenario %q in this run", name))
		}
	}
	if o.reference != "" && !slices.Contains(strategies, o.reference) {
		return bad(fmt.Errorf("--reference: no strategy %q in this run", o.reference))
	}
	return nil
}

func (o outputFlags) validate() error {
	for _, f := range reports.Formats() {
		if f == o.format {
			return nil
		}
	}
	return bad(fmt.Errorf("--format: unknown format %q (known: %s)", o.format, joinFormats()))
}

// budgets checks rep's results against the scenarios' expect blocks.
func budgets(scs []*scenario.Scenario, rep ledger.Report) ([]reports.Violation, error) {
	vs, err := harness.Check(scs, rep.Results)
	if err != nil {
		return nil, fmt.Errorf("check budgets: %w", err)
	}
	out := make([]reports.Violation, len(vs))
	for i, v := range vs {
		out[i] = reports.Violation{Scenario: v.Scenario, Strategy: v.Strategy, Field: v.Field, Budget: v.Budget, Got: v.Got}
	}
	return out, nil
}

// expectations are, for each result whose scenario's expect block names an
// outcome for its strategy, that outcome and whether the run met it.
func expectations(scs []*scenario.Scenario, rep ledger.Report) []reports.Expectation {
	byName := make(map[string]*scenario.Scenario, len(scs))
	for _, sc := range scs {
		byName[sc.Name] = sc
	}
	var out []reports.Expectation
	for _, r := range rep.Results {
		sc := byName[r.Scenario]
		if sc == nil || sc.Expect[r.Strategy].Outcome == "" {
			continue
		}
		want := sc.Expect[r.Strategy].Outcome
		m, err := scenario.ParseOutcome(want)
		if err != nil {
			continue // a loaded scenario's always parses; budgets reports it otherwise
		}
		out = append(out, reports.Expectation{Scenario: r.Scenario, Strategy: r.Strategy, Outcome: want,
			Met: m.Holds(string(r.Outcome))})
	}
	return out
}

// publish compares rep with the baseline, renders and writes it, and then
// gives the verdict: with --check, each broken budget on stderr; with
// --baseline, the rows that moved — unless the report itself is a table on
// stdout, which already shows both, or goes to --out, which holds them
// (a CI log then shows the verdict's one line, not the report again). It
// returns an error (exit 1) for broken budgets under --check, for
// regressions, and for baseline results missing from the run unless
// --allow-missing (or the run is one shard, whose merge is gated). A signal that stops
// ctx before the report is written marks it incomplete (all its runs
// finished, but the command was told to stop) and is the error returned;
// one that comes while it is written leaves no report at all.
func publish(ctx context.Context, stdout, stderr io.Writer, o outputFlags, g gate, rep ledger.Report, opts reports.Options) error {
	if cause := signalled(ctx); cause != nil && rep.Stopped == nil {
		rep.Stopped = stopOf(cause, len(rep.Results), len(rep.Results))
	}
	var cmp reports.Comparison
	if g.baseline != nil {
		cmp = reports.Compare(*g.baseline, rep, g.tolerance)
		opts.Baseline = &cmp
	}
	o.apply(&opts)
	opts.Width = outputWidth(stdout, o.out)
	var buf bytes.Buffer
	if err := reports.Write(&buf, o.format, rep, opts); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	write := emitUnless
	if rep.Stopped != nil { // marked: written whatever comes
		write = func(_ context.Context, stdout io.Writer, path string, data []byte) error {
			return emit(stdout, path, data)
		}
	}
	if err := write(ctx, stdout, o.out, buf.Bytes()); err != nil {
		return err
	}
	if cause := signalled(ctx); cause != nil {
		return cause
	}

	shown := o.format == reports.FormatTable || o.out != ""
	var failed []string
	if g.check && len(opts.Violations) > 0 {
		if !shown {
			if err := reports.WriteViolations(stderr, opts.Violations); err != nil {
				return err
			}
		}
		failed = append(failed, fmt.Sprintf("%d broken %s", len(opts.Violations), plural(len(opts.Violations), "budget", "budgets")))
	}
	if g.baseline != nil {
		if !shown {
			if err := reports.WriteComparison(stderr, cmp); err != nil {
				return err
			}
		}
		if n := len(cmp.Regressions()); n > 0 {
			failed = append(failed, fmt.Sprintf("%d %s against baseline %s", n, plural(n, "regression", "regressions"), g.path))
		}
		if n := len(cmp.Missing); n > 0 && !g.allowMissing && opts.Shard == nil {
			failed = append(failed, fmt.Sprintf("%d %s of baseline %s not in this run (first: %s); --allow-missing passes it",
				n, plural(n, "result", "results"), g.path, cmp.Missing[0]))
		}
	}
	if len(failed) > 0 {
		return verdict{errors.New(strings.Join(failed, "; "))}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
