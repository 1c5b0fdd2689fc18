package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/stopsignal"
)

// Every command stops when told: a command started under a context a
// signal has already stopped exits 130 (SIGINT) or 143 (SIGTERM) rather
// than 0 with its full output, and an --out an earlier run left is not
// left to pass for this one's.
func TestEveryCommandStopsWhenTold(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "r.json")
	if code, _, errOut := run(t, "run", "--format", "json", "--out", report, "--strategies", "blind", "../../scenarios/truncated-answer.yaml"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	stale := filepath.Join(dir, "stale.json")
	for _, c := range []struct {
		args  []string
		cause error
		want  int
	}{
		{[]string{"merge", "--out", stale, report}, errInterrupted, exitInterrupted},
		{[]string{"merge", "--format", "junit", "--out", stale, report}, errTerminated, exitTerminated},
		{[]string{"run", "--baseline", report, "--strategies", "blind", "--out", stale, "../../scenarios/truncated-answer.yaml"}, errInterrupted, exitInterrupted},
		{[]string{"validate", "../../scenarios/truncated-answer.yaml"}, errInterrupted, exitInterrupted},
		{[]string{"validate", "../../scenarios/truncated-answer.yaml"}, errTerminated, exitTerminated},
		{[]string{"strategies"}, errInterrupted, exitInterrupted},
		{[]string{"init", filepath.Join(dir, "init")}, errTerminated, exitTerminated},
		{[]string{"serve", "--addr", "127.0.0.1:0", "../../scenarios/truncated-answer.yaml"}, errInterrupted, exitInterrupted},
		{[]string{"serve", "--addr", "127.0.0.1:0", "../../scenarios/truncated-answer.yaml"}, errTerminated, exitTerminated},
	} {
		if err := os.WriteFile(stale, []byte(`{"seed": 1, "results": []}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(c.cause)
		var stdout, stderr bytes.Buffer
		code := mainContext(ctx, c.args, &stdout, &stderr)
		if code != c.want {
			t.Errorf("%v: exit %d, want %d: %s", c.args, code, c.want, stderr.String())
		}
		if data, err := os.ReadFile(stale); hasArg(c.args, "--out") && err == nil && !strings.Contains(string(data), `"complete": false`) {
			t.Errorf("%v: a report that looks complete at --out: %.200s", c.args, data)
		}
	}
}

func hasArg(args []string, s string) bool {
	for _, a := range args {
		if a == s {
			return true
		}
	}
	return false
}

// A command that does not stop within stopGrace of the signal is left
// behind: Main exits 130 at once and says so. (run is held inside its
// progress callback, as a command that never reads its context would be.)
func TestMainGivesUpOnACommandThatDoesNotStop(t *testing.T) {
	block := make(chan struct{})
	var once sync.Once
	runProgress = func(int, int) {
		once.Do(func() {
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				panic(err)
			}
			select { // held until the test ends, a minute at most
			case <-block:
			case <-time.After(time.Minute):
			}
		})
	}
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"run", "--parallel", "1", "--format", "json", "--strategies", "blind",
			"../../scenarios/truncated-answer.yaml", "../../scenarios/thundering-herd.yaml"}, io.Discard, &stderr)
	}()
	var code int
	select { // a bound, not a timing: stopGrace is 0.5 s
	case code = <-done:
	case <-time.After(time.Minute):
		t.Fatal("Main did not give up on the command")
	}
	close(block)
	if code != exitInterrupted || !strings.Contains(stderr.String(), "interrupted: the command did not stop") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

// lockedBuffer is a bytes.Buffer two goroutines may write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A signal that came during start-up, before Main (the SDKs' package
// initialisation takes up to a second), waits in stopsignal.C and stops
// the command as it starts: exit 143, and the earlier run's report at
// --out replaced by one marked incomplete.
func TestASignalDuringStartUpStopsTheCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(out, []byte(`{"seed": 1, "results": []}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stopsignal.C <- syscall.SIGTERM
	code, _, errOut := run(t, "run", "--format", "json", "--out", out, "--strategies", "blind", "../../scenarios/truncated-answer.yaml")
	if code != exitTerminated {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if data, err := os.ReadFile(out); err == nil && !strings.Contains(string(data), `"complete": false`) {
		t.Fatalf("a report that looks complete: %.200s", data)
	}
}
