package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExploreBadFlagsAreExit2(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explore"}, "--strategy: required"},
		{[]string{"explore", "--strategy", "nope"}, `--strategy: unknown strategy "nope"`},
		{[]string{"explore", "--strategy", "blind", "--against", "blind"}, "--against: \"blind\" is the explored strategy itself"},
		{[]string{"explore", "--strategy", "blind", "--objective", "worst"}, `--objective: "worst" is not an objective`},
		{[]string{"explore", "--strategy", "blind", "--objective", "versus"}, "--objective versus: needs --against"},
		{[]string{"explore", "--strategy", "blind", "--runs", "0"}, "--runs: must be 1 to 1000000, got 0"},
		{[]string{"explore", "--strategy", "blind", "--parallel", "-1"}, "--parallel: must be 0 or more"},
		{[]string{"explore", "--strategy", "blind", "--time", "-1s"}, "--time: must be 0 or more"},
		{[]string{"explore", "--strategy", "blind", "extra"}, "unknown command"},
		{[]string{"run", "--hindsight", "--shard", "1/2"}, "--hindsight: not with --shard"},
		{[]string{"explore", "--strategy", "blind", "--out", "/dev/null/x"}, "--out: mkdir /dev/null"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != exitBadInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// TestExploreWritesAFileThatRunShows: explore writes a file, the same
// command writes the same bytes, and run shows the file with blind's
// budgets broken.
func TestExploreWritesAFileThatRunShows(t *testing.T) {
	var files [2][]byte
	var path string
	for i := range files {
		dir := t.TempDir()
		code, out, errOut := run(t, "explore", "--strategy", "blind", "--against", "classify", "--runs", "5", "--out", dir)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		matches, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if len(matches) != 1 || !strings.Contains(out, "wrote "+matches[0]) {
			t.Fatalf("files %v, stdout %s", matches, out)
		}
		path = matches[0]
		files[i], _ = os.ReadFile(path)
	}
	if string(files[0]) != string(files[1]) {
		t.Fatal("the same command wrote different files")
	}
	code, out, errOut := run(t, "run", "--strategies", "blind,classify", "--check", path)
	if code != exitFailed || !strings.Contains(out+errOut, "blind on explore-blind-versus-classify-s1-") {
		t.Fatalf("run --check on the written file: exit %d:\n%s\n%s", code, out, errOut)
	}
}

// TestRunHindsightAddsItsRowAndRegret: --hindsight adds a hindsight row
// with its plan, and each run's regret, to the JSON and the table.
func TestRunHindsightAddsItsRowAndRegret(t *testing.T) {
	code, out, errOut := run(t, "run", "--hindsight", "--format", "json", "--strategies", "classify,blind", "../../scenarios/truncated-answer.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{`"strategy": "hindsight"`, `"plan": "send to sonnet with max_tokens 6000"`, `"regret": 1,`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in:\n%s", want, out)
		}
	}
	code, out, _ = run(t, "run", "--hindsight", "--details", "--strategies", "classify,blind", "../../scenarios/truncated-answer.yaml")
	if code != exitOK || !strings.Contains(out, "regret") || !strings.Contains(out, "| hindsight") {
		t.Errorf("exit %d, table:\n%s", code, out)
	}
	if code, out, _ = run(t, "run", "--strategies", "classify", "../../scenarios/truncated-answer.yaml"); strings.Contains(out, "regret") {
		t.Errorf("regret without --hindsight:\n%s", out)
	}
	// A fleet has no hindsight: it plans one caller, not many on one key.
	code, out, errOut = run(t, "run", "--hindsight", "--format", "json", "--strategies", "classify", "../../scenarios/rate-limit-bucket.yaml", "../../scenarios/thundering-herd.yaml")
	if code != exitOK || strings.Count(out, `"strategy": "hindsight"`) != 1 || strings.Count(out, `"regret"`) != 2 {
		t.Errorf("exit %d (%s): want hindsight and regret for the lone turn only:\n%s", code, errOut, out)
	}
}

// explore's file, when --strategy was a strategy file, validates as it
// is, and validates with every budget known when given that file; the
// command explore prints to check it fails the budget, as it should.
func TestExploreOfAStrategyFileValidates(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(mine, []byte("name: mine\nbase: blind\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "explored")
	code, stdout, errOut := run(t, "explore", "--strategy", mine, "--against", "classify", "--runs", "5", "--out", out)
	if code != exitOK {
		t.Fatalf("explore: exit %d: %s", code, errOut)
	}
	matches, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
	if len(matches) != 1 {
		t.Fatalf("explore wrote %v:\n%s", matches, stdout)
	}
	if code, _, errOut := run(t, "validate", matches[0]); code != exitOK || !strings.Contains(errOut, "not checked in this run: the budgets for mine ") {
		t.Fatalf("validate: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := run(t, "validate", "--strategies", mine, matches[0]); code != exitOK || errOut != "" {
		t.Fatalf("validate --strategies: exit %d, stderr %q", code, errOut)
	}
	check := "check it:  faultbench run --check --strategies " + mine + ",classify " + matches[0] + "\n"
	if !strings.HasSuffix(stdout, check) {
		t.Fatalf("stdout does not end with %q:\n%s", check, stdout)
	}
	args := strings.Fields(strings.TrimPrefix(check, "check it:  faultbench "))
	if code, _, errOut := run(t, args...); code != exitFailed {
		t.Fatalf("%v: exit %d; want 1 (the budget fails today): %s", args, code, errOut)
	}
}
