package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
)

func newValidateCmd(stdout io.Writer) *cobra.Command {
	var strategies string
	cmd := &cobra.Command{
		Use:   "validate [PATH...]",
		Short: "Check scenario files (default scenarios/) and report every problem with file and line",
		Long: `Check scenario files and folders (default scenarios/, or the built-in suite
where there is none) and report every problem with file and line.

A budget (expect block) may name a preset, a strategy in a strategies/ folder
beside the scenarios' folder, or one given with --strategies (names, files or
folders, as run takes them); a name a typo away from one of those is an error,
and any other is said to be not checked.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var given []recovery.Strategy
			if strategies != "" {
				ss, err := strategiesFrom(strategies)
				if err != nil {
					return bad(err)
				}
				given = ss
			}
			if err := strategyFileGiven(args); err != nil {
				return err
			}
			scs, builtIn, err := loadScenarios(cmd.ErrOrStderr(), args)
			if err != nil {
				return err
			}
			if err := checkBudgetNames(cmd.ErrOrStderr(), scs, builtIn, given); err != nil {
				return err
			}
			for _, sc := range scs {
				fmt.Fprintf(stdout, "ok  %s  (%s)\n", sc.Name, sc.Path)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&strategies, "strategies", "", "strategies the budgets may name besides the presets: names, files or folders, comma-separated")
	return cmd
}

// strategyFileGiven refuses a strategy file given to validate, which
// checks scenarios: read as one, it would only say "description:
// required". A file that loads as a strategy is named, with the command
// that checks it.
func strategyFileGiven(args []string) error {
	for _, path := range args {
		if fi, err := os.Stat(path); err != nil || fi.IsDir() {
			continue
		}
		if _, err := strategyfile.Load(path); err == nil {
			return bad(fmt.Errorf("%s is a strategy file, not a scenario: check it with `faultbench strategies %s`", path, path))
		}
	}
	return nil
}
