package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/explore"
	"github.com/faultbench/faultbench/recovery"
)

// maxExploreRuns bounds --runs: a million scripts, about five hours on two
// cores at the measured rate (docs/explore.md).
const maxExploreRuns = 1_000_000

// exploreProgress, when set, hears of every script that ends: a test's
// seam to interrupt a search part-way.
var exploreProgress func(done, total int)

type exploreFlags struct {
	strategy, against, objective, out string
	runs, parallel                    int
	seed                              uint64
	timeLimit                         time.Duration
}

func newExploreCmd(stdout io.Writer) *cobra.Command {
	var f exploreFlags
	cmd := &cobra.Command{
		Use:   "explore --strategy FILE|PRESET [--against PRESET]",
		Short: "Search generated fault scripts for the one where a strategy does worst, and write it as a scenario",
		Long: `Search generated fault scripts for the one where a strategy does worst, and write it as a scenario.

explore generates --runs fault scripts from --seed, runs the strategy on
each over one mock on loopback and virtual time, keeps the worst by the
objective, shrinks it while the objective holds, and writes it to --out as
a scenario file whose expect block the strategy fails today: a regression
test to commit. The same flags write the same bytes, at any --parallel.

Objectives: violation (a property of the suite broken), regret (cost ÷
hindsight's), versus (cost ÷ --against's on the same script), outcome (the
strategy fails where --against succeeds). See docs/explore.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runExplore(cmd.Context(), stdout, cmd.ErrOrStderr(), f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.strategy, "strategy", "", "the strategy to explore: a preset's name or a strategy file (required)")
	fl.StringVar(&f.against, "against", "", "the strategy to compare with (versus, outcome): a preset's name or a file")
	fl.StringVar(&f.objective, "objective", "", "violation|regret|versus|outcome (default: versus with --against, else violation)")
	fl.IntVar(&f.runs, "runs", 1000, fmt.Sprintf("scripts to generate and run (1 to %d)", maxExploreRuns))
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the script generator")
	fl.StringVar(&f.out, "out", "explored", "folder to write the scenario file to")
	fl.IntVar(&f.parallel, "parallel", 0, "scripts at once (0: one per CPU); the result does not depend on it")
	fl.DurationVar(&f.timeLimit, "time", 0, "wall-clock time to search for; past it no script starts and the result covers those run (0: none)")
	return cmd
}

// oneStrategy resolves --strategy or --against: a preset or one file.
func oneStrategy(flag, entry string) (recovery.Strategy, error) {
	ss, err := resolveStrategy(entry)
	if err != nil {
		return recovery.Strategy{}, bad(fmt.Errorf("--%s: %w", flag, err))
	}
	if len(ss) != 1 {
		return recovery.Strategy{}, bad(fmt.Errorf("--%s: %s holds %d strategies; name one file", flag, entry, len(ss)))
	}
	return ss[0], nil
}

func (f exploreFlags) options() (explore.Options, error) {
	var o explore.Options
	if f.strategy == "" {
		return o, bad(fmt.Errorf("--strategy: required: a preset (%s) or a strategy file", strings.Join(presetNames(), ", ")))
	}
	s, err := oneStrategy("strategy", f.strategy)
	if err != nil {
		return o, err
	}
	o.Strategy = s
	if f.against != "" {
		a, err := oneStrategy("against", f.against)
		if err != nil {
			return o, err
		}
		if a.Name == s.Name {
			return o, bad(fmt.Errorf("--against: %q is the explored strategy itself", a.Name))
		}
		o.Against = &a
	}
	if f.objective != "" {
		obj, err := explore.ParseObjective(f.objective)
		if err != nil {
			return o, bad(fmt.Errorf("--objective: %w", err))
		}
		o.Objective = obj
		if obj.NeedsAgainst() && o.Against == nil {
			return o, bad(fmt.Errorf("--objective %s: needs --against", obj))
		}
	}
	switch {
	case f.runs < 1 || f.runs > maxExploreRuns:
		return o, bad(fmt.Errorf("--runs: must be 1 to %d, got %d", maxExploreRuns, f.runs))
	case f.parallel < 0:
		return o, bad(fmt.Errorf("--parallel: must be 0 or more, got %d", f.parallel))
	case f.timeLimit < 0:
		return o, bad(fmt.Errorf("--time: must be 0 or more, got %s", f.timeLimit))
	case f.out == "":
		return o, bad(fmt.Errorf("--out: a folder is required"))
	}
	o.Runs, o.Seed, o.Parallel = f.runs, f.seed, f.parallel
	return o, nil
}

func runExplore(ctx context.Context, stdout, stderr io.Writer, f exploreFlags) error {
	o, err := f.options()
	if err != nil {
		return err
	}
	// An --out that cannot be made is the user's to fix, and is better
	// said before the search than after it.
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return bad(fmt.Errorf("--out: %w", err))
	}
	if err := checkOut("--out", filepath.Join(f.out, "explored.yaml")); err != nil {
		return err
	}
	// Ctrl-C, SIGTERM and --time end the search the same way: no further
	// script starts, those started finish, and what was found is shrunk,
	// written and reported. The search itself runs on, detached from ctx,
	// to that end.
	stop := make(chan struct{})
	var once sync.Once
	closeStop := func() { once.Do(func() { close(stop) }) }
	o.Stop = stop
	if f.timeLimit > 0 {
		t := time.AfterFunc(f.timeLimit, closeStop)
		defer t.Stop()
	}
	defer context.AfterFunc(ctx, closeStop)()
	if isTerminal(stderr) {
		bar := newProgressBar(stderr)
		defer bar.finish()
		o.Progress = bar.update
	}
	if exploreProgress != nil {
		o.Progress = exploreProgress
	}
	found, err := explore.Explore(context.WithoutCancel(ctx), o)
	if err != nil {
		return err
	}
	// stoppedBy is what ended the search early, returned once its result is
	// out (exit 130 or 143); nil when it ran to the end or to --time.
	var stoppedBy error
	if ctx.Err() != nil {
		stoppedBy = fmt.Errorf("explore stopped, %w: %d of %d scripts ran, and the result covers those", stopCause(ctx, 0), found.Ran, o.Runs)
	}
	if o.Objective == "" { // as Explore chose it
		o.Objective = explore.ObjectiveViolation
		if o.Against != nil {
			o.Objective = explore.ObjectiveVersus
		}
	}
	fmt.Fprintf(stdout, "explored %d scripts (seed %d, objective %s): the objective held for %d", found.Ran, o.Seed, o.Objective, found.Held)
	if found.Mismatches > 0 {
		fmt.Fprintf(stdout, "; %d left out, their record disagreeing with the mock's journal", found.Mismatches)
	}
	fmt.Fprintln(stdout)
	if found.Shrunk == nil {
		fmt.Fprintln(stdout, "nothing to write")
		return stoppedBy
	}
	path, err := explore.Write(f.out, explore.Search{Options: o, Found: found})
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) { // the folder, not faultbench
			return bad(fmt.Errorf("--out: %w", err))
		}
		return err
	}
	fmt.Fprintf(stdout, "worst: script %d, score %.2f; shrunk in %d tries to score %.2f\nwrote %s\n",
		found.Worst.Index, found.Worst.Score, found.Tried, found.Shrunk.Score, path)
	// The file's budgets name the strategies as given: a file's strategy
	// is checked when that file is passed again.
	with := f.strategy
	if f.against != "" && o.Objective.NeedsAgainst() {
		with += "," + f.against
	}
	fmt.Fprintf(stdout, "check it:  faultbench run --check --strategies %s %s\n", with, path)
	return stoppedBy
}
