package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/internal/atomicfile"
	"github.com/faultbench/faultbench/internal/stopsignal"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
)

// The causes of a run that ends early: SIGINT, SIGTERM, --timeout.
var (
	errInterrupted = errors.New("interrupted")
	errTerminated  = errors.New("terminated")
	errTimedOut    = errors.New("--timeout reached")
)

// onStopSignal cancels ctx's cancel with errInterrupted on SIGINT and
// errTerminated on SIGTERM, until the returned func is called. A signal
// that came during start-up, before main, waits in stopsignal.C and
// cancels ctx at once.
func onStopSignal(ctx context.Context, cancel context.CancelCauseFunc) (stop func()) {
	signal.Notify(stopsignal.C, stopsignal.Signals...) // again: a stop func of an earlier call stopped it
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case s := <-stopsignal.C:
			cancel(signalCause(s))
		case <-ctx.Done():
		}
	}()
	return func() {
		signal.Stop(stopsignal.C)
		select { // one that came as it stopped
		case s := <-stopsignal.C:
			cancel(signalCause(s))
		default:
		}
		cancel(nil)
		<-done
	}
}

// signalCause is the cause of a stop by s.
func signalCause(s os.Signal) error {
	if s == syscall.SIGTERM {
		return errTerminated
	}
	return errInterrupted
}

// signalled is what stopped ctx when a signal did (errInterrupted or
// errTerminated), nil otherwise (--timeout, or not stopped).
func signalled(ctx context.Context) error {
	if cause := context.Cause(ctx); errors.Is(cause, errInterrupted) || errors.Is(cause, errTerminated) {
		return cause
	}
	return nil
}

// withTimeout bounds ctx by a --timeout (0: none), its cause errTimedOut.
func withTimeout(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, timeout, errTimedOut)
}

// checkTimeout refuses a negative --timeout.
func checkTimeout(flag string, d time.Duration) error {
	if d < 0 {
		return bad(fmt.Errorf("%s: must be 0 (none) or more, got %s", flag, d))
	}
	return nil
}

// stopCause is what ended ctx, worded for a person and for the exit code
// (it wraps errInterrupted, errTerminated or errTimedOut): the timeout
// says how long it was.
func stopCause(ctx context.Context, timeout time.Duration) error {
	cause := context.Cause(ctx)
	if errors.Is(cause, errTimedOut) {
		return fmt.Errorf("%w (%s)", errTimedOut, timeout)
	}
	if cause == nil {
		cause = errInterrupted
	}
	return cause
}

// stopOf is the mark of an incomplete report: what stopped the command,
// and how much of its work had finished.
func stopOf(cause error, finished, runs int) *ledger.Stop {
	return &ledger.Stop{Cause: cause.Error(), Finished: finished, Runs: runs}
}

// checkOut refuses an --out that cannot be written, before the work whose
// report it is: an unwritable path is bad input (exit 2), said at once.
func checkOut(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := mkdirFor(flag, path); err != nil {
		return err
	}
	if err := atomicfile.CheckWritable(path); err != nil {
		return bad(fmt.Errorf("%s: %w", flag, err))
	}
	return nil
}

// reportCommands are the commands whose --out is a report file.
var reportCommands = []string{"run", "merge", "grade"}

// clearStaleOut removes the file at a report command's --out as the
// command starts, before anything can stop it: a command stopped before
// it writes its own report then leaves none, never an earlier run's that
// would pass for its own. A file the command also reads (merge --out
// r.json r.json, --baseline) is kept; the report replaces it whole at the
// end. A folder at --out is refused.
func clearStaleOut(cmd *cobra.Command, args []string) error {
	fl := cmd.Flags().Lookup("out")
	if fl == nil || fl.Value.String() == "" || !slices.Contains(reportCommands, cmd.Name()) {
		return nil
	}
	path := fl.Value.String()
	out, err := os.Lstat(path)
	if err != nil {
		return nil // nothing there; or the write will say why not
	}
	inputs := args
	if b := cmd.Flags().Lookup("baseline"); b != nil && b.Value.String() != "" {
		inputs = append(slices.Clone(args), b.Value.String())
	}
	for _, in := range inputs {
		if fi, err := os.Stat(in); err == nil && os.SameFile(out, fi) {
			return nil
		}
	}
	if err := atomicfile.RemoveStale(path); err != nil {
		return bad(fmt.Errorf("--out: %w", err))
	}
	return nil
}

// emit writes the report to path, or to stdout when path is empty. The
// file is written whole or not at all (a temporary file renamed over
// path), never through a symlink at path. A path that cannot be written
// is bad input (exit 2), named in the error.
func emit(stdout io.Writer, path string, data []byte) error {
	return emitUnless(context.Background(), stdout, path, data)
}

// emitUnless is emit for a complete report: when a signal stops ctx
// before the report is in place, it writes nothing and returns the
// signal's cause, so that an interrupted command never leaves a report
// that looks whole.
func emitUnless(ctx context.Context, stdout io.Writer, path string, data []byte) error {
	commit := func() error { return signalled(ctx) }
	if path == "" {
		if err := commit(); err != nil {
			return err
		}
		_, err := stdout.Write(data)
		return err
	}
	if err := mkdirFor("--out", path); err != nil {
		return err
	}
	err := atomicfile.WriteFileIf(path, data, 0o644, commit)
	if errors.Is(err, errInterrupted) || errors.Is(err, errTerminated) {
		return err
	}
	if err != nil {
		// The *PathError names the path.
		return bad(fmt.Errorf("--out: %w", err))
	}
	return nil
}

// mkdirFor makes the folder path is to be written in, when it is missing.
func mkdirFor(flag, path string) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return bad(fmt.Errorf("%s %s: %w", flag, path, err))
		}
	}
	return nil
}

// readReport reads a JSON report that flag names (--baseline, a merge
// part). An incomplete report — a stopped run's — is refused unless
// allowIncomplete: its figures are those of the runs that finished only.
// A report refused for what it holds is named as FILE:LINE:COLUMN; b is
// what the command may still read (maxReportBytes over all its reports).
func readReport(ctx context.Context, b *readBudget, flag, name string, allowIncomplete bool) (ledger.Report, *reports.Shard, error) {
	f, err := openReport(name, b)
	if err != nil {
		return ledger.Report{}, nil, bad(fmt.Errorf("%s%s: %w", flag, name, err))
	}
	defer f.Close()
	rep, shard, err := reports.ReadJSONContext(ctx, f)
	var pe *reports.PositionError
	switch {
	case err != nil && signalled(ctx) != nil:
		return ledger.Report{}, nil, err
	case errors.As(err, &pe):
		return ledger.Report{}, nil, bad(fmt.Errorf("%s%s:%w", flag, name, err))
	case err != nil:
		return ledger.Report{}, nil, bad(fmt.Errorf("%s%s: %w", flag, name, err))
	}
	if rep.Stopped != nil && !allowIncomplete {
		return ledger.Report{}, nil, bad(fmt.Errorf("%s%s: an incomplete report (%s: %d of %d runs finished); --allow-incomplete takes it anyway",
			flag, name, rep.Stopped.Cause, rep.Stopped.Finished, rep.Stopped.Runs))
	}
	return rep, shard, nil
}
