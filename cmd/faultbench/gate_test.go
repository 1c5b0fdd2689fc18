package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tightened copies overloaded-then-backup.yaml into a temporary folder with
// its classify budget cut to 4 attempts, which the run's 5 break. The runs
// of these tests use this one scenario and two strategies: the default
// suite grows, and a run under -race is slow.
func tightened(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile("../../scenarios/overloaded-then-backup.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Replace(string(data), `attempts: "<= 5"`, `attempts: "<= 4"`, 1)
	if cut == string(data) {
		t.Fatal(`overloaded-then-backup.yaml no longer sets attempts: "<= 5" for classify; update this test`)
	}
	if err := os.WriteFile(filepath.Join(dir, "overloaded-then-backup.yaml"), []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// two are the strategies these tests compare.
var two = []string{"--strategies", "blind,classify"}

// cli builds a command line: args, then more.
func cli(args []string, more ...string) []string { return append(append([]string{}, args...), more...) }

const brokenLine = "broken budget: classify on overloaded-then-backup: attempts is 5, expected <= 4"

func TestCheckExitsOneAndListsTheBrokenBudget(t *testing.T) {
	dir := tightened(t)
	code, out, errOut := run(t, cli([]string{"run", "--check", "--format", "json", dir}, two...)...)
	if code != exitFailed {
		t.Fatalf("exit %d, want 1; stderr: %s", code, errOut)
	}
	if !strings.Contains(errOut, brokenLine) || !strings.Contains(errOut, "faultbench: 1 broken budget") {
		t.Errorf("stderr does not list the broken budget: %s", errOut)
	}
	if !json.Valid([]byte(out)) {
		t.Errorf("stdout is not clean JSON: %.200s", out)
	}

	code, out, errOut = run(t, cli([]string{"run", dir}, two...)...)
	if code != exitOK {
		t.Fatalf("without --check: exit %d, stderr: %s", code, errOut)
	}
	if !strings.Contains(out, "== broken budgets ==\n\nclassify on overloaded-then-backup: attempts is 5, expected <= 4\n") {
		t.Errorf("the table does not show the broken budget:\n%s", out)
	}
}

func TestJUnitShowsTheBrokenBudget(t *testing.T) {
	file := filepath.Join(t.TempDir(), "junit.xml")
	code, _, errOut := run(t, cli([]string{"run", "--check", "--format", "junit", "--out", file, tightened(t)}, two...)...)
	if code != exitFailed {
		t.Fatalf("exit %d, want 1; stderr: %s", code, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name     string `xml:"name,attr"`
				Failures []struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Failures != 1 || doc.Tests != 2 {
		t.Fatalf("%d tests, %d failures; want 2 and 1", doc.Tests, doc.Failures)
	}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if len(c.Failures) > 0 && (s.Name != "overloaded-then-backup" || c.Name != "classify" ||
				c.Failures[0].Message != "attempts is 5, expected <= 4") {
				t.Errorf("unexpected failure in %s / %s: %v", s.Name, c.Name, c.Failures)
			}
		}
	}
}

func TestEveryFormatRendersARun(t *testing.T) {
	for _, format := range []string{"table", "markdown", "json", "csv", "junit", "html"} {
		t.Run(format, func(t *testing.T) {
			code, out, errOut := run(t, cli([]string{"run", "--format", format, "../../scenarios/truncated-answer.yaml"}, two...)...)
			if code != exitOK || out == "" {
				t.Fatalf("exit %d, %d bytes; stderr: %s", code, len(out), errOut)
			}
		})
	}
}

func TestShardsMergeIntoTheUnshardedJSON(t *testing.T) {
	computeOnly(t)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.json")
	if code, _, errOut := run(t, cli([]string{"run", "--format", "json", "--seed", "5", "--parallel", "1", "--out", whole, "../../scenarios"}, two...)...); code != exitOK {
		t.Fatalf("unsharded: %s", errOut)
	}
	var shards []string
	for _, k := range []string{"4", "2", "3", "1"} { // merge must not care about order
		file := filepath.Join(dir, "shard-"+k+".json")
		code, _, errOut := run(t, cli([]string{"run", "--format", "json", "--seed", "5", "--parallel", "3", "--shard", k + "/4", "--out", file, "../../scenarios"}, two...)...)
		if code != exitOK {
			t.Fatalf("shard %s/4: %s", k, errOut)
		}
		shards = append(shards, file)
	}
	code, merged, errOut := run(t, append([]string{"merge"}, shards...)...)
	if code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	want, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	if merged != string(want) {
		t.Fatalf("merged shards differ from the unsharded run:\n%s\nwant:\n%s", merged, want)
	}

	code, _, errOut = run(t, "merge", shards[0], shards[1], shards[2])
	if code != exitBadInput || !strings.Contains(errOut, "missing") {
		t.Errorf("merging 3 of 4 shards: exit %d, %s", code, errOut)
	}
	code, table, errOut := run(t, append([]string{"merge", "--format", "table", "--scenarios", "../../scenarios"}, shards...)...)
	if code != exitOK || !strings.Contains(table, "== summary: single turns ==") || !strings.Contains(table, "\noverloaded-then-backup: ") {
		t.Errorf("merge --format table: exit %d, stderr %s", code, errOut)
	}
}

// A run's JSON report, merged into a table, is the table the run prints:
// the tests that read the whole default suite's tables read merge's.
func TestMergeOfARunsJSONPrintsTheRunsTable(t *testing.T) {
	report := filepath.Join(t.TempDir(), "report.json")
	scenarios := []string{"../../scenarios/overloaded-then-backup.yaml", "../../scenarios/thundering-herd.yaml"}
	if code, _, errOut := run(t, cli(cli([]string{"run", "--format", "json", "--out", report}, two...), scenarios...)...); code != exitOK {
		t.Fatalf("run --format json: exit %d: %s", code, errOut)
	}
	for _, view := range [][]string{nil, {"--all-rows"}, {"--details"}} {
		code, table, errOut := run(t, cli(cli(cli([]string{"run"}, two...), view...), scenarios...)...)
		if code != exitOK {
			t.Fatalf("run %v: exit %d: %s", view, code, errOut)
		}
		merge := cli(cli([]string{"merge", "--format", "table"}, view...), "--scenarios", scenarios[0], "--scenarios", scenarios[1], report)
		code, merged, errOut := run(t, merge...)
		if code != exitOK {
			t.Fatalf("merge %v: exit %d: %s", view, code, errOut)
		}
		if merged != table {
			t.Errorf("merge %v prints another table than run:\n%s\nrun's:\n%s", view, merged, table)
		}
	}
}

func TestBaselineFailsOnARegressionAndPrintsTheRowsThatMoved(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	scenarios := []string{"../../scenarios/overloaded-then-backup.yaml", "../../scenarios/truncated-answer.yaml"}
	runWith := func(args ...string) (int, string, string) {
		return run(t, cli(cli(append([]string{"run"}, args...), two...), scenarios...)...)
	}
	if code, _, errOut := runWith("--format", "json", "--out", base); code != exitOK {
		t.Fatal(errOut)
	}
	code, _, errOut := runWith("--format", "json", "--baseline", base)
	if code != exitOK || !strings.Contains(errOut, "nothing moved") {
		t.Fatalf("same run against itself: exit %d, %s", code, errOut)
	}

	// A baseline in which classify needed 2 attempts fewer and no wait on the
	// overload: today's run is a regression against it.
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc["results"].([]any) {
		r := r.(map[string]any)
		if r["scenario"] == "overloaded-then-backup" && r["strategy"] == "classify" {
			r["attempts"] = r["attempts"].(float64) - 2
			r["wait_ms"] = r["wait_ms"].(float64) * 0.95
		}
	}
	doctored, _ := json.Marshal(doc)
	if err := os.WriteFile(base, doctored, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runWith("--format", "json", "--baseline", base, "--max-regress", "10%")
	if code != exitFailed {
		t.Fatalf("exit %d, want 1; stderr: %s", code, errOut)
	}
	for _, want := range []string{"| overloaded-then-backup | classify | attempts ", "regressed |", "within tolerance |",
		"faultbench: 1 regression against baseline " + base} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code, _, errOut := runWith("--baseline", base, "--max-regress", "200%"); code != exitOK {
		t.Errorf("within a 200%% tolerance: exit %d, %s", code, errOut)
	}
}

func TestGateBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "x.json")
	if err := os.WriteFile(notJSON, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"shard past the end":    {"run", "--shard", "5/4", "../../scenarios"},
		"shard not K/N":         {"run", "--shard", "half", "../../scenarios"},
		"tolerance not percent": {"run", "--baseline", notJSON, "--max-regress", "lots", "../../scenarios"},
		"baseline missing":      {"run", "--baseline", filepath.Join(dir, "absent.json"), "../../scenarios"},
		"baseline not JSON":     {"run", "--baseline", notJSON, "../../scenarios"},
		"merge nothing":         {"merge"},
		"merge not JSON":        {"merge", notJSON},
		"merge check blind":     {"merge", "--check", notJSON},
		"merge unknown format":  {"merge", "--format", "yaml", notJSON},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := Main(args, &out, &errOut); code != exitBadInput {
				t.Fatalf("exit %d, want 2; stderr: %s", code, errOut.String())
			}
		})
	}
}
