package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes (docs/security.md).
const (
	exitOK = 0
	// exitFailed is the run's verdict: a budget broke under --check, a
	// cost regressed against --baseline, or the run reached --timeout.
	exitFailed = 1
	// exitBadInput is the user's input: a broken scenario or strategy
	// file, an unknown flag, command, strategy or format.
	exitBadInput = 2
	// exitInternal is faultbench failing: the harness, a report it could
	// not render, a panic. (A Go out-of-memory death cannot be caught; the
	// ceilings on every input are there so that it does not happen.)
	exitInternal = 3
	// exitInterrupted is Ctrl-C, as shells report a SIGINT death.
	exitInterrupted = 130
	// exitTerminated is SIGTERM, as shells report a SIGTERM death.
	exitTerminated = 143
)

// badInput marks an error as the user's input being wrong (exit 2).
type badInput struct{ err error }

func (b badInput) Error() string { return b.err.Error() }
func (b badInput) Unwrap() error { return b.err }

func bad(err error) error { return badInput{err} }

// verdict marks an error as the run's verdict (exit 1): faultbench worked,
// and what it measured fails the check asked for.
type verdict struct{ err error }

func (v verdict) Error() string { return v.err.Error() }
func (v verdict) Unwrap() error { return v.err }

// stopGrace is how long a command has, after SIGINT or SIGTERM, to
// stop on its own (run writes the report of the runs that finished)
// before Main gives up on it and exits with the signal's code: whatever
// the command is doing, the process ends within a second of the signal.
const stopGrace = 500 * time.Millisecond

// Main runs the command line with args and returns the exit code. Ctrl-C
// (SIGINT) and SIGTERM cancel the runs in flight; what finished is still
// reported, marked incomplete. A command that has not returned stopGrace
// after the signal is left behind: Main returns 130 or 143 and the
// process ends, its --out removed at the command's start and never
// written (docs/security.md).
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := onStopSignal(ctx, cancel)
	code := mainUntilStopped(ctx, args, stdout, stderr)
	// From here on a signal kills the process, and a shell reports 130 or
	// 143 all the same; one that came as the command returned is read now.
	stop()
	if cause := signalled(ctx); cause != nil && code == exitOK {
		fmt.Fprintf(stderr, "faultbench: %v as the command finished\n", cause)
		return exitCode(cause, true)
	}
	return code
}

// mainUntilStopped runs the command line under ctx, and gives up on it
// stopGrace after ctx is stopped.
func mainUntilStopped(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	done := make(chan int, 1)
	go func() { done <- mainContext(ctx, args, stdout, stderr) }()
	select {
	case code := <-done:
		return code
	case <-ctx.Done():
	}
	select {
	case code := <-done:
		return code
	case <-time.After(stopGrace):
		cause := context.Cause(ctx)
		fmt.Fprintf(stderr, "faultbench: %v: the command did not stop within %s; exiting without its report\n", cause, stopGrace)
		return exitCode(cause, true)
	}
}

// mainContext is Main under ctx: a test cancels ctx with errInterrupted
// where Ctrl-C would.
func mainContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return execute(ctx, newRoot(stdout, stderr), args, stderr)
}

// execute runs root with args. A panic in the command's goroutine is
// caught and is exit 3, with its stack.
func execute(ctx context.Context, root *cobra.Command, args []string, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "faultbench: internal error (a bug; please report it): %v\n%s", p, debug.Stack())
			code = exitInternal
		}
	}()
	// Everything cobra rejects before a command starts (an unknown command,
	// a wrong number of arguments) is bad input.
	started := false
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		started = true
		return clearStaleOut(cmd, args)
	}
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil && started {
		// A command that finished its work after a signal still exits
		// 130 or 143: the user asked it to stop (serve stops this way).
		err = signalled(ctx)
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "faultbench:", err)
	return exitCode(err, started)
}

// exitCode is the exit code of an error; started says whether a command
// began (cobra's own refusals are bad input).
func exitCode(err error, started bool) int {
	var b badInput
	var v verdict
	switch {
	case !started || errors.As(err, &b):
		return exitBadInput
	case errors.Is(err, errInterrupted):
		return exitInterrupted
	case errors.Is(err, errTerminated):
		return exitTerminated
	case errors.As(err, &v), errors.Is(err, errTimedOut):
		return exitFailed
	}
	return exitInternal
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
	root.AddCommand(newRunCmd(stdout), newValidateCmd(stdout), newInitCmd(stdout))
	root.AddCommand(newMergeCmd(stdout))
	root.AddCommand(newStrategiesCmd(stdout))
	root.AddCommand(newServeCmd(stdout, stderr))
	root.AddCommand(newExploreCmd(stdout))
	root.AddCommand(newGradeCmd(stdout, stderr))
	fitHelp(root)
	return root
}
