package main

import (
	"io"

	"github.com/spf13/cobra"
)

func newInitCmd(stdout io.Writer) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write the built-in suite (scenarios/ and strategies/) into DIR (default: here) to run and edit",
		Long: `Write the suite built into faultbench into DIR (default: the current folder):
the default scenarios under DIR/scenarios/ and the example strategy files
under DIR/strategies/. Nothing is written if any of those files is already
there, unless --force is given. Then run them with faultbench run scenarios/.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return writeSuite(stdout, dir, force)
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite files that are already there")
	return cmd
}
