package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

type runFlags struct {
	strategies string
	seed       uint64
	format     string
	out        string
	parallel   int
}

func newRunCmd(stdout io.Writer) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [PATH...]",
		Short: "Run scenarios (files or folders; default scenarios/) against strategies and print what each cost",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRun(cmd.Context(), stdout, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.strategies, "strategies", strings.Join(presetNames(), ","), "comma-separated strategies to compare")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of every run's random source")
	fl.StringVar(&f.format, "format", "table", "output format: "+strings.Join(reports.Formats(), "|"))
	fl.StringVar(&f.out, "out", "", "write the report to FILE instead of standard output")
	fl.IntVar(&f.parallel, "parallel", 0, "runs at once (0: one per CPU)")
	return cmd
}

func loadScenarios(args []string) ([]*scenario.Scenario, error) {
	if len(args) == 0 {
		args = []string{"scenarios"}
	}
	scs, err := scenario.Load(args...)
	if err != nil {
		return nil, bad(err)
	}
	if len(scs) == 0 {
		return nil, bad(fmt.Errorf("no scenario files in %s", strings.Join(args, ", ")))
	}
	return scs, nil
}

func runRun(ctx context.Context, stdout io.Writer, f runFlags, args []string) error {
	if !validFormat(f.format) {
		return bad(fmt.Errorf("--format: unknown format %q (known: %s)", f.format, strings.Join(reports.Formats(), ", ")))
	}
	if f.parallel < 0 {
		return bad(fmt.Errorf("--parallel: must be 0 or more, got %d", f.parallel))
	}
	strategies, err := strategiesFrom(f.strategies)
	if err != nil {
		return bad(err)
	}
	scs, err := loadScenarios(args)
	if err != nil {
		return err
	}
	rep, runErr := harness.Run(ctx, scs, strategies, harness.Options{Seed: f.seed, Parallel: f.parallel})
	descriptions := map[string]string{}
	for _, sc := range scs {
		descriptions[sc.Name] = sc.Description
	}
	var buf bytes.Buffer
	opts := reports.Options{Strategies: names(strategies), Descriptions: descriptions}
	if err := reports.Write(&buf, f.format, rep, opts); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	if err := emit(stdout, f.out, buf.Bytes()); err != nil {
		return err
	}
	if runErr != nil {
		return fmt.Errorf("run: %w", runErr)
	}
	return nil
}

func validFormat(format string) bool {
	for _, f := range reports.Formats() {
		if f == format {
			return true
		}
	}
	return false
}

func names(strategies []recovery.Strategy) []string {
	out := make([]string, len(strategies))
	for i, s := range strategies {
		out[i] = s.Name
	}
	return out
}

// emit writes the report to path, or to stdout when path is empty.
func emit(stdout io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}
