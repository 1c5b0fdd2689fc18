package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// In CI: a run that lacks results of its baseline exits 1 unless
// --allow-missing; --out keeps the comparison out of the job log (the
// report holds it); a forged report is refused at FILE:LINE:COLUMN.
func TestBaselineGateForCI(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	two := []string{"../../scenarios/truncated-answer.yaml", "../../scenarios/thundering-herd.yaml"}
	if code, _, errOut := run(t, append([]string{"run", "--format", "json", "--out", base, "--strategies", "blind"}, two...)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, _, errOut := run(t, "run", "--baseline", base, "--strategies", "blind", "--format", "json", "--out", filepath.Join(dir, "one.json"), two[0])
	if code != exitFailed || !strings.Contains(errOut, "1 result of baseline "+base+" not in this run (first: blind on thundering-herd); --allow-missing passes it") {
		t.Fatalf("one of two: exit %d: %s", code, errOut)
	}
	if n := strings.Count(errOut, "\n"); n > 1 {
		t.Errorf("--out: %d lines on stderr, want the verdict's one:\n%s", n, errOut)
	}
	if code, _, errOut := run(t, "run", "--baseline", base, "--allow-missing", "--strategies", "blind", two[0]); code != exitOK {
		t.Fatalf("--allow-missing: exit %d: %s", code, errOut)
	}

	forged := filepath.Join(dir, "forged.json")
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(forged, bytes.Replace(data, []byte(`"attempts": `), []byte(`"attempts": -`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"merge", forged}, {"run", "--baseline", forged, two[0]}} {
		code, _, errOut := run(t, args...)
		if code != exitBadInput || !strings.Contains(errOut, forged+":") || !strings.Contains(errOut, ".attempts: a negative number") {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
}

// grade refuses a pack with a mock-only scenario as bad input (exit 2),
// not as its own failure (3).
func TestGradeRefusesAMockOnlyPack(t *testing.T) {
	dir := t.TempDir()
	mockOnlyFile(t, dir)
	code, _, errOut := run(t, "grade", "--pack", dir, "--", "true")
	if code != exitBadInput || !strings.Contains(errOut, "mock-only (no turn section): grade needs a turn") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// --cpuprofile and --memprofile write pprof files (gzipped protobuf).
func TestRunWritesProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	code, _, errOut := run(t, "run", "--cpuprofile", cpu, "--memprofile", mem, "--strategies", "blind", "../../scenarios/truncated-answer.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{cpu, mem} {
		data, err := os.ReadFile(f)
		if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			t.Errorf("%s: not a pprof file (%v, %d bytes)", f, err, len(data))
		}
	}
	if code, _, errOut := run(t, "run", "--cpuprofile", filepath.Join(dir, "no", "such", "dir", "x"), "--strategies", "blind", "../../scenarios/truncated-answer.yaml"); code != exitBadInput {
		t.Errorf("an unwritable profile: exit %d: %s", code, errOut)
	}
}
