package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/faultbench/faultbench/internal/atomicfile"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
)

// The causes of a run that ends early: SIGINT, SIGTERM, --timeout.
var (
	errInterrupted = errors.New("interrupted")
	errTerminated  = errors.New("terminated")
	errTimedOut    = errors.New("--timeout reached")
)

// stopSignals are the signals that stop a command the way Ctrl-C does.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// onStopSignal cancels ctx's cancel with errInterrupted on SIGINT and
// errTerminated on SIGTERM, until the returned func is called.
func onStopSignal(ctx context.Context, cancel context.CancelCauseFunc) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, stopSignals...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case s := <-sig:
			if s == syscall.SIGTERM {
				cancel(errTerminated)
			} else {
				cancel(errInterrupted)
			}
		case <-ctx.Done():
		}
	}()
	return func() {
		signal.Stop(sig)
		cancel(nil)
		<-done
	}
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

// emit writes the report to path, or to stdout when path is empty. The
// file is written whole or not at all (a temporary file renamed over
// path), never through a symlink at path. A path that cannot be written
// is bad input (exit 2), named in the error.
func emit(stdout io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	if err := mkdirFor("--out", path); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
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
func readReport(flag, name string, allowIncomplete bool) (ledger.Report, *reports.Shard, error) {
	f, err := openReport(name)
	if err != nil {
		return ledger.Report{}, nil, bad(fmt.Errorf("%s%s: %w", flag, name, err))
	}
	defer f.Close()
	rep, shard, err := reports.ReadJSON(f)
	if err != nil {
		return ledger.Report{}, nil, bad(fmt.Errorf("%s%s: %w", flag, name, err))
	}
	if rep.Stopped != nil && !allowIncomplete {
		return ledger.Report{}, nil, bad(fmt.Errorf("%s%s: an incomplete report (%s: %d of %d runs finished); --allow-incomplete takes it anyway",
			flag, name, rep.Stopped.Cause, rep.Stopped.Finished, rep.Stopped.Runs))
	}
	return rep, shard, nil
}
