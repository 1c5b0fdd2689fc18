package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SIGTERM part-way through a run with a fleet: the runs that finished are
// written to --out, atomically and marked incomplete; exit 143. merge and
// --baseline refuse the file unless --allow-incomplete, and a merge of it
// is incomplete too.
func TestATerminatedFleetRunWritesAnIncompleteReport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	runProgress = func(done, _ int) {
		if done == 2 {
			cancel(errTerminated)
		}
	}
	defer func() { runProgress = nil }()
	var stdout, stderr bytes.Buffer
	code := mainContext(ctx, []string{"run", "--parallel", "1", "--format", "json", "--out", out, "--strategies", "blind,classify",
		"../../scenarios/truncated-answer.yaml", "../../scenarios/thundering-herd.yaml"}, &stdout, &stderr)
	if code != exitTerminated || !strings.Contains(stderr.String(), "run stopped, terminated: 2 of 4 runs finished") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Complete *bool
		Stopped  struct {
			Cause          string
			Finished, Runs int
		}
		Results []json.RawMessage
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Complete == nil || *doc.Complete || len(doc.Results) != 2 ||
		doc.Stopped.Cause != "terminated" || doc.Stopped.Finished != 2 || doc.Stopped.Runs != 4 {
		t.Fatalf("the report is not marked incomplete (%v): %.400s", err, data)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files in --out's folder, want the report alone", len(ents))
	}

	for _, args := range [][]string{
		{"merge", out},
		{"run", "--baseline", out, "--strategies", "blind", "../../scenarios/truncated-answer.yaml"},
	} {
		code, _, errOut := run(t, args...)
		if code != exitBadInput || !strings.Contains(errOut, out+": an incomplete report (terminated: 2 of 4 runs finished); --allow-incomplete") {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
	code, merged, errOut := run(t, "merge", "--allow-incomplete", out)
	if code != exitOK || !strings.Contains(merged, `"complete": false`) || !strings.Contains(merged, "merged from incomplete "+out) {
		t.Fatalf("merge --allow-incomplete: exit %d: %s\n%.300s", code, errOut, merged)
	}
	code, _, errOut = run(t, "run", "--allow-incomplete", "--allow-missing", "--baseline", out, "--strategies", "blind", "../../scenarios/truncated-answer.yaml")
	if code != exitOK {
		t.Fatalf("--baseline --allow-incomplete: exit %d: %s", code, errOut)
	}
}

// Flags that cannot work are refused before anything runs: --shard 0/0,
// a negative --timeout, an --out that cannot be written; merge names a
// file it cannot read.
func TestRunRefusesWhatCannotWorkBeforeItStarts(t *testing.T) {
	runProgress = func(int, int) { t.Error("a run started") }
	defer func() { runProgress = nil }()
	dir := t.TempDir()
	file := filepath.Join(dir, "file") // a folder's place taken by a file
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--shard", "0/0", "../../scenarios/truncated-answer.yaml"}, "--shard: shard 0/0: want K/N with 1 <= K <= N"},
		{[]string{"run", "--timeout", "-1s", "../../scenarios/truncated-answer.yaml"}, "--timeout: must be 0 (none) or more, got -1s"},
		{[]string{"run", "--out", filepath.Join(file, "r.json"), "../../scenarios/truncated-answer.yaml"}, "--out " + filepath.Join(file, "r.json")},
		{[]string{"run", "--out", dir, "../../scenarios/truncated-answer.yaml"}, "--out: write " + dir + ": is a directory"},
		{[]string{"merge", "/dev/zero"}, "/dev/zero"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != exitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// A symlink at --out is replaced by the report, never written through.
func TestRunOutReplacesASymlink(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	if err := os.Symlink(outside, out); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "run", "--format", "json", "--out", out, "--strategies", "blind", "../../scenarios/truncated-answer.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Fatalf("written through the symlink: %q", b)
	}
	if b, _ := os.ReadFile(out); !bytes.Contains(b, []byte(`"results"`)) {
		t.Fatalf("--out holds %.100q", b)
	}
}

// Ctrl-C part-way through explore: what it found is still shrunk, written
// and reported, and the exit is 130. A file it cannot write (here a folder
// in its place) is exit 2, and a symlink in its place is replaced, not
// written through.
func TestExploreStopsWithWhatItFound(t *testing.T) {
	computeOnly(t)
	dir := t.TempDir()
	args := []string{"explore", "--strategy", "blind", "--against", "classify", "--runs", "400", "--parallel", "1", "--out", dir}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	exploreProgress = func(done, _ int) {
		if done == 30 {
			cancel(errInterrupted)
		}
	}
	defer func() { exploreProgress = nil }()
	var stdout, stderr bytes.Buffer
	code := mainContext(ctx, args, &stdout, &stderr)
	if code != exitInterrupted || !strings.Contains(stderr.String(), "explore stopped, interrupted:") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(matches) != 1 || !strings.Contains(stdout.String(), "wrote "+matches[0]) {
		t.Fatalf("files %v, stdout %s", matches, stdout.String())
	}
	exploreProgress = nil

	path := matches[0]
	written, _ := os.ReadFile(path)
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(path)
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancelCause(context.Background())
	defer cancel2(nil)
	exploreProgress = func(done, _ int) {
		if done == 30 {
			cancel2(errInterrupted)
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := mainContext(ctx2, args, &stdout, &stderr); code != exitInterrupted {
		t.Fatalf("again: exit %d: %s", code, stderr.String())
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Fatalf("written through the symlink: %q", b)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, written) {
		t.Fatal("the file in the symlink's place differs from the first")
	}

	os.Remove(path)
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx3, cancel3 := context.WithCancelCause(context.Background())
	defer cancel3(nil)
	exploreProgress = func(done, _ int) {
		if done == 30 {
			cancel3(errInterrupted)
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := mainContext(ctx3, args, &stdout, &stderr); code != exitBadInput || !strings.Contains(stderr.String(), "--out: ") {
		t.Fatalf("a folder in the file's place: exit %d: %s", code, stderr.String())
	}
}
