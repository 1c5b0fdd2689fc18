package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

func newValidateCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "validate [PATH...]",
		Short: "Check scenario files (default scenarios/) and report every problem with file and line",
		RunE: func(_ *cobra.Command, args []string) error {
			scs, err := loadScenarios(args)
			if err != nil {
				return err
			}
			if err := checkBudgetNames(scs, nil); err != nil {
				return err
			}
			for _, sc := range scs {
				fmt.Fprintf(stdout, "ok  %s  (%s)\n", sc.Name, sc.Path)
			}
			return nil
		},
	}
}
