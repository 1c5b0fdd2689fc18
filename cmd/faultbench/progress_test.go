package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeClock is a wall clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newTestBar() (*progressBar, *fakeClock, *bytes.Buffer) {
	clk := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	var out bytes.Buffer
	return &progressBar{w: &out, now: clk.now, start: clk.t}, clk, &out
}

func TestProgressBarStaysQuietForAShortRun(t *testing.T) {
	bar, clk, out := newTestBar()
	for done := 1; done <= 18; done++ {
		clk.advance(50 * time.Millisecond)
		bar.update(done, 18)
	}
	bar.finish()
	if out.Len() != 0 {
		t.Fatalf("a run under a second drew %q", out.String())
	}
}

func TestProgressBarDrawsAfterASecondAndWipesItself(t *testing.T) {
	bar, clk, out := newTestBar()
	clk.advance(1100 * time.Millisecond)
	bar.update(9, 18)
	if got, want := out.String(), "\r[===============>              ] 9/18 runs"; got != want {
		t.Fatalf("drew %q, want %q", got, want)
	}
	clk.advance(10 * time.Millisecond)
	bar.update(10, 18) // too soon to redraw
	if strings.Contains(out.String(), "10/18") {
		t.Fatal("redrew within 100ms")
	}
	bar.update(18, 18) // the last one is always drawn
	if !strings.HasSuffix(out.String(), "\r[==============================] 18/18 runs") {
		t.Fatalf("last draw: %q", out.String())
	}
	bar.finish()
	if !strings.HasSuffix(out.String(), "\r\033[K") {
		t.Fatalf("finish did not wipe the line: %q", out.String())
	}
}

func TestProgressOnlyOnATerminal(t *testing.T) {
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is no terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a file is no terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(w) {
		t.Error("a pipe is no terminal")
	}
}

func TestRunWritesNoProgressToAPipe(t *testing.T) {
	code, _, errOut := run(t, "run", "--format", "json", "--strategies", "classify", "../../scenarios/truncated-answer.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Fatalf("stderr is not a terminal, yet got %q", errOut)
	}
}
