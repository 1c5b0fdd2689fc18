package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

type gradeFlags struct {
	pack       string
	writePack  string
	strategies string
	check      bool
	cardOnly   bool
	format     string
	out        string
	timeout    time.Duration
	parallel   int
	speed      int
	bounds     grade.Bounds
	profile    profileFlags
}

func newGradeCmd(stdout, stderr io.Writer) *cobra.Command {
	var f gradeFlags
	cmd := &cobra.Command{
		Use:   "grade [flags] -- CMD [ARGS...]",
		Short: "Grade any client's recovery: run CMD against each scenario of a pack and judge it from the journal",
		Long: `grade runs CMD once per scenario of a pack (default: the built-in one; --write-pack DIR
writes it out to edit), against the mock on a loopback port, in real time. Each run gets its own
session in its base URL, in the environment: ANTHROPIC_BASE_URL, OPENAI_BASE_URL (with /v1),
GOOGLE_GEMINI_BASE_URL, AZURE_OPENAI_ENDPOINT, OPENAI_API_VERSION, ANTHROPIC_VERTEX_BASE_URL
(with /v1), ANTHROPIC_VERTEX_PROJECT_ID, CLOUD_ML_REGION, FAULTBENCH_BASE_URL,
FAULTBENCH_SCENARIO, FAULTBENCH_MODEL, FAULTBENCH_FALLBACK_MODEL, FAULTBENCH_WIRE,
FAULTBENCH_STREAM, a dummy ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY and
AZURE_OPENAI_API_KEY in place of yours (your other credentials are left out), and NO_PROXY
with the mock's host. A run that outlives --timeout is killed with its whole tree. --speed N
runs the client's clock (under libfaketime) and the mock's N times fast, so that the long
scenarios (the Retry-After ladder, a 30-minute outage) grade in seconds.

Then each check the scenario names (docs/grade.md) judges the journal: pass, fail or not
reached, with its evidence. The same pack runs through the built-in strategies on the virtual
clock, and the report shows the client as one more column beside them, "client" (the key of
its budgets in an expect block). --check exits 1 when a check fails or a budget breaks.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if f.writePack != "" {
				return nil
			}
			if cmd.ArgsLenAtDash() != 0 || len(args) == 0 {
				return bad(errors.New("grade: give the client after --, as in faultbench grade -- node client.mjs"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.writePack != "" {
				return writePack(stdout, f.writePack)
			}
			return profiled(f.profile, func() error { return runGrade(cmd.Context(), stdout, stderr, f, args) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.pack, "pack", "", "a folder (or file) of scenarios to grade with, instead of the built-in pack")
	fl.StringVar(&f.writePack, "write-pack", "", "write the built-in pack into DIR, to edit, and exit")
	fl.StringVar(&f.strategies, "strategies", strings.Join(defaultNames(), ","), "the strategies to run the pack through beside the client")
	fl.BoolVar(&f.check, "check", false, "exit 1 when a check fails or a budget of the client (expect: {client: ...}) breaks")
	fl.BoolVar(&f.cardOnly, "card-only", false, "table and markdown: print the report card alone, without the strategies' report")
	fl.StringVar(&f.format, "format", "table", "output format: table|markdown|json|junit|html")
	fl.StringVar(&f.out, "out", "", "write the report to FILE instead of standard output")
	fl.DurationVar(&f.timeout, "timeout", grade.DefaultTimeout, "real time each scenario's process may run before it and its whole tree are killed")
	fl.IntVar(&f.parallel, "parallel", grade.DefaultParallel, "scenarios run at once")
	fl.IntVar(&f.speed, "speed", 1, "run the client's clock (under libfaketime) and the mock's this many times fast; the long scenarios (the Retry-After ladder, the 30-minute outage) need 60")
	fl.IntVar(&f.bounds.Attempts, "bound-attempts", grade.DefaultAttempts, "most attempts a client may make under a fault that never passes")
	fl.DurationVar(&f.bounds.Time, "bound-time", grade.DefaultTime, "most time a client may keep trying under such a fault, or sit on a hung request")
	fl.DurationVar(&f.bounds.Outage, "bound-outage", grade.DefaultOutage, "most time a client may keep trying through a long outage before it gives up, if it does not ride it out (its time)")
	fl.DurationVar(&f.bounds.Silence, "bound-silence", grade.DefaultSilence, "longest a client may send nothing during a long outage (its time)")
	f.profile.register(fl)
	return cmd
}

func writePack(stdout io.Writer, dir string) error {
	files, err := grade.WritePack(dir)
	for _, f := range files {
		fmt.Fprintln(stdout, "wrote", f)
	}
	if err != nil {
		return bad(err)
	}
	return nil
}

// gradeFormats are the formats grade writes.
var gradeFormats = []string{reports.FormatTable, reports.FormatMarkdown, reports.FormatJSON, reports.FormatJUnit, reports.FormatHTML}

func runGrade(ctx context.Context, stdout, stderr io.Writer, f gradeFlags, command []string) error {
	if !contains(gradeFormats, f.format) {
		return bad(fmt.Errorf("--format: unknown format %q (known: %s)", f.format, strings.Join(gradeFormats, ", ")))
	}
	if f.timeout <= 0 || f.parallel <= 0 || f.bounds.Attempts <= 0 || f.bounds.Time <= 0 || f.bounds.Outage <= 0 || f.bounds.Silence <= 0 {
		return bad(errors.New("--timeout, --parallel, --bound-attempts, --bound-time, --bound-outage and --bound-silence must be more than 0"))
	}
	if f.speed < 1 || f.speed > grade.MaxSpeed {
		return bad(fmt.Errorf("--speed: %d is not from 1 to %d", f.speed, grade.MaxSpeed))
	}
	var scs []*scenario.Scenario
	var err error
	if f.pack != "" {
		scs, _, err = loadScenarios(stderr, []string{f.pack})
	} else if scs, err = grade.Pack(); err != nil {
		err = fmt.Errorf("the built-in pack: %w", err) // a bug of this build
	}
	if err != nil {
		return err
	}
	strategies, err := strategiesFrom(f.strategies)
	if err != nil {
		return bad(err)
	}
	if err := checkBudgetNames(stderr, scs, false, strategies); err != nil {
		return err
	}
	if err := gradeable(scs); err != nil {
		return err
	}
	if err := checkOut("--out", f.out); err != nil {
		return err
	}

	rep, err := harness.Run(ctx, scs, strategies, harness.Options{Seed: 1})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("grade: the strategies: %w", err)
	}
	fmt.Fprintf(stderr, "faultbench grade: %d scenarios, %d at once, each at most %s of real time\n", len(scs), min(f.parallel, len(scs)), f.timeout)
	runs, obsErr := grade.Observe(ctx, scs, grade.Options{Command: command, Timeout: f.timeout, Parallel: f.parallel, Speed: f.speed})
	if obsErr != nil && ctx.Err() == nil {
		return bad(obsErr)
	}
	for _, r := range runs {
		// A run that sent no request did not run the scenario's turn: it
		// has no cell to rank (a client that crashes at start would
		// otherwise be the cheapest stop everywhere); the card says why.
		if led := grade.Ledger(r); led.Attempts > 0 {
			rep.Results = append(rep.Results, led)
		}
	}
	card := grade.NewCard(command, runs, f.bounds)
	if obsErr != nil { // interrupted: the report says so, in every format
		rep.Stopped = stopOf(stopCause(ctx, 0), len(runs), len(scs))
		card.Stop(rep.Stopped)
	}

	violations, err := budgets(scs, rep)
	if err != nil {
		return err
	}
	var clientViolations []reports.Violation
	for _, v := range violations {
		if v.Strategy == grade.Strategy {
			clientViolations = append(clientViolations, v)
		}
	}
	descriptions := map[string]string{}
	for _, sc := range scs {
		descriptions[sc.Name] = sc.Description
	}
	opts := reports.Options{Strategies: append(names(strategies), grade.Strategy), Descriptions: descriptions,
		Violations: violations, Checked: true, Expectations: expectations(scs, rep), SummaryOnly: f.format == reports.FormatTable}
	var buf bytes.Buffer
	if err := writeGrade(&buf, f.format, f.cardOnly, card, rep, opts); err != nil {
		return err
	}
	if err := emit(stdout, f.out, buf.Bytes()); err != nil {
		return err
	}
	if obsErr != nil { // interrupted: what finished is reported
		return obsErr
	}
	var failed []string
	if n := len(card.Failed()); n > 0 {
		failed = append(failed, fmt.Sprintf("%d failed %s", n, plural(n, "check", "checks")))
	}
	if n := len(clientViolations); n > 0 {
		failed = append(failed, fmt.Sprintf("%d broken %s of the client", n, plural(n, "budget", "budgets")))
	}
	if len(failed) > 0 {
		fmt.Fprintf(stderr, "faultbench grade: %s\n", card.Tally())
		if f.check {
			return verdict{errors.New(strings.Join(failed, "; "))}
		}
	}
	return nil
}

// writeGrade renders the card and the report beside it in one format.
func writeGrade(w *bytes.Buffer, format string, cardOnly bool, card grade.Card, rep ledger.Report, opts reports.Options) error {
	switch format {
	case reports.FormatTable:
		if err := grade.WriteText(w, card); err != nil || cardOnly {
			return err
		}
		w.WriteString("\n")
	case reports.FormatMarkdown:
		if err := grade.WriteMarkdown(w, card); err != nil || cardOnly {
			return err
		}
		w.WriteString("\n")
	case reports.FormatJSON:
		var r bytes.Buffer
		if err := reports.JSON(&r, rep); err != nil {
			return fmt.Errorf("render report: %w", err)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(r.Bytes(), &doc); err != nil {
			return fmt.Errorf("render report: %w", err)
		}
		c, err := json.Marshal(card)
		if err != nil {
			return fmt.Errorf("render report: %w", err)
		}
		doc["grade"] = c
		out, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return fmt.Errorf("render report: %w", err)
		}
		w.Write(out)
		w.WriteString("\n")
		return nil
	case reports.FormatJUnit:
		return grade.WriteJUnit(w, card)
	}
	var page bytes.Buffer
	if err := reports.Write(&page, format, rep, opts); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	out := page.Bytes()
	if b := card.Incomplete(); b != "" && format == reports.FormatHTML {
		banner := "<p class=\"incomplete\" role=\"alert\"><strong>" + html.EscapeString(b) + "</strong></p>\n"
		out = bytes.Replace(out, []byte("<header>\n"), []byte("<header>\n"+banner), 1)
	}
	w.Write(out)
	return nil
}

// gradeable refuses a pack with a mock-only scenario (no turn section):
// grade runs each scenario's turn through the strategies beside the
// client, so such a file is the user's input at fault (exit 2), not a
// failure of faultbench.
func gradeable(scs []*scenario.Scenario) error {
	for _, sc := range scs {
		if sc.MockOnly() {
			return bad(fmt.Errorf("--pack: %s: mock-only (no turn section): grade needs a turn to run the strategies through; serve it with faultbench serve", sc.Path))
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
