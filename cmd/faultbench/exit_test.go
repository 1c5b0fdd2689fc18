package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Ctrl-C part-way: the runs that finished are reported, the message says
// the run was interrupted, and the exit code is 130.
func TestInterruptedRunShowsWhatFinished(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	runProgress = func(done, _ int) {
		if done == 2 {
			cancel(errInterrupted)
		}
	}
	defer func() { runProgress = nil }()
	var out, errOut bytes.Buffer
	code := mainContext(ctx, []string{"run", "--parallel", "1", "--format", "json", "--strategies", "blind,classify",
		"../../scenarios/truncated-answer.yaml", "../../scenarios/auth-expired.yaml"}, &out, &errOut)
	if code != exitInterrupted {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "run stopped, interrupted: 2 of 4 runs finished") {
		t.Errorf("stderr: %s", errOut.String())
	}
	var rep struct{ Results []json.RawMessage }
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Results) != 2 {
		t.Errorf("%d results (%v): %s", len(rep.Results), err, out.String())
	}
}

func TestTimeoutEndsTheRun(t *testing.T) {
	code, _, errOut := run(t, "run", "--timeout", "1ns", "--strategies", "blind,classify", "../../scenarios/truncated-answer.yaml")
	if code != exitFailed || !strings.Contains(errOut, "run stopped, --timeout reached (1ns): 0 of 2 runs finished") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestAPanicIsAnInternalFailure(t *testing.T) {
	root := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { panic("boom") }}
	var errOut bytes.Buffer
	root.SetErr(&errOut)
	if code := execute(context.Background(), root, nil, &errOut); code != exitInternal || !strings.Contains(errOut.String(), "internal error (a bug; please report it): boom") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}

func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		err     error
		started bool
		want    int
	}{
		{bad(errInterrupted), true, exitBadInput},
		{errInterrupted, false, exitBadInput},
		{verdict{errors.New("2 broken budgets")}, true, exitFailed},
		{errTimedOut, true, exitFailed},
		{errInterrupted, true, exitInterrupted},
		{errTerminated, true, exitTerminated},
		{context.Canceled, true, exitInternal},
	} {
		if got := exitCode(c.err, c.started); got != c.want {
			t.Errorf("%v (started %v): exit %d, want %d", c.err, c.started, got, c.want)
		}
	}
}
