package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes (docs/cli.md).
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
)

// badInput marks an error as the user's input being wrong (exit 2).
type badInput struct{ err error }

func (b badInput) Error() string { return b.err.Error() }
func (b badInput) Unwrap() error { return b.err }

func bad(err error) error { return badInput{err} }

// Main runs the command line with args and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	// Everything cobra rejects before a command starts (an unknown command,
	// a wrong number of arguments) is bad input.
	started := false
	root.PersistentPreRun = func(*cobra.Command, []string) { started = true }
	root.SetArgs(args)
	// Ctrl-C cancels the runs in flight; what finished is still reported.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "faultbench:", err)
	var b badInput
	if !started || errors.As(err, &b) {
		return exitBadInput
	}
	return exitFailed
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Version:       version(),
		Use:           "faultbench",
		Short:         "Scripted LLM faults against recovery strategies, and what each cost",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("faultbench {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return bad(err) })
	root.AddCommand(newRunCmd(stdout), newValidateCmd(stdout))
	root.AddCommand(newMergeCmd(stdout))
	root.AddCommand(newStrategiesCmd(stdout))
	root.AddCommand(newServeCmd(stdout, stderr))
	return root
}
