package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/internal/gendoc"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
	"github.com/faultbench/faultbench/scenario"
)

func TestStrategiesListsEveryPresetWithItsParameters(t *testing.T) {
	code, out, errOut := run(t, "strategies")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, name := range []string{"blind", "classify", "classify-preflight", "claude-code", "kimi-code", "s11", "sdk-anthropic", "sdk-openai"} {
		if !strings.Contains(out, "| "+name+" ") && !strings.Contains(out, " "+name+" |") {
			t.Errorf("no column for %s", name)
		}
		if !strings.Contains(out, "\n"+name+": ") {
			t.Errorf("no description for %s", name)
		}
	}
	for _, row := range []string{"attempts per step", "backoff", "retry-after", "fallback", "escalation", "compaction", "preflight"} {
		if !strings.Contains(out, "| "+row) {
			t.Errorf("no row %q", row)
		}
	}
}

// Each option a preset takes from its source, where the source differs from
// classify, shows in the table: should_retry_permanent, honor: seconds_only,
// auth: within_attempts, adjust.within_step, learn_from_estimate,
// escalation.unclamped and within_step, and a loop-guard detector that
// breaks at once.
func TestStrategiesShowsEachSourceOption(t *testing.T) {
	for _, c := range []struct {
		s    func() recovery.Strategy
		want []string
	}{
		{recovery.ClaudeCode, []string{"true: resends\npermanent too", "whole seconds\nonly\n+0–25%\nno cap", "before each\nretry, within\nthe attempts", "floor 3000\nwithin the step"}},
		{recovery.SDKOpenAI, []string{"true: resends\npermanent too", "obeyed\ncap 2m\nabove: gives up", "overloaded\nnot once a\nstream began"}},
		{recovery.KimiCode, []string{"0.85×input\non every\noverflow"}},
		{recovery.Codex, []string{"5 more\n200ms ×2^r\njitter ±10%", "ignored"}},
		{recovery.AISDK, []string{"obeyed\ncap 1m\nabove: backoff"}},
		// Gemini CLI reads no retry-after header, but waits the error
		// body's RetryInfo up to 300 s and falls back above it.
		{recovery.GeminiCLI, []string{"RetryInfo\nonly\n+0–20%\ncap 5m\nabove: fallback", "on quota not_found\nwhen attempts\nrun out"}},
		{recovery.Classifying, []string{"obeyed\n+ RetryInfo\ncap 1m\nabove: waits cap"}},
		{recovery.LangChainJS, []string{"410–499 5xx", "jitter +0–100%"}},
		{recovery.S11, []string{"ceiling 32768\nunclamped\nwithin the step"}},
		{recovery.Classifying, []string{"repeat 3/5\nping-pong 3/5\nno progress 2 at once"}},
	} {
		s := c.s()
		var buf bytes.Buffer
		if err := listStrategies(&buf, []recovery.Strategy{s}); err != nil {
			t.Fatal(err)
		}
		// One column: gather each row's cell lines into one text.
		var cells []string
		for _, line := range strings.Split(buf.String(), "\n") {
			parts := strings.Split(line, "|")
			if len(parts) == 4 {
				cells = append(cells, strings.TrimSpace(parts[2]))
			}
		}
		text := strings.Join(cells, "\n")
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q in\n%s", s.Name, w, text)
			}
		}
	}
	// Warning first is shown as warn/break.
	s := recovery.Classifying()
	s.LoopGuard.NoProgressBreak = 3
	var buf bytes.Buffer
	if err := listStrategies(&buf, []recovery.Strategy{s}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "no progress 2/3") {
		t.Errorf("no_progress_break: 3 not shown as 2/3:\n%s", buf.String())
	}
}

// TestStrategiesDocTable holds docs/strategies.md's table of the presets
// to what `faultbench strategies` prints: the effective values, so the
// docs, the command and the engine cannot disagree.
func TestStrategiesDocTable(t *testing.T) {
	code, out, errOut := run(t, "strategies")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	gendoc.Check(t, "../../docs/strategies.md", "strategies", "```\n"+out+"```\n", *update,
		"go test ./cmd/faultbench/ -run StrategiesDoc -update")
}

func TestStrategiesPrintsYAMLThatReadsBack(t *testing.T) {
	code, out, errOut := run(t, "strategies", "claude-code", "../../strategies/classify-budgeted.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	docs := strings.Split(out, "---\n")
	if len(docs) != 2 {
		t.Fatalf("%d documents:\n%s", len(docs), out)
	}
	s, err := strategyfile.Parse("printed.yaml", []byte(docs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "claude-code-custom" || s.Attempts != 11 || s.Backoff != recovery.ClaudeCode().Backoff {
		t.Fatalf("read back %+v", s)
	}
	code, _, errOut = run(t, "strategies", "no-such-strategy")
	if code != exitBadInput {
		t.Fatalf("exit %d for an unknown strategy: %s", code, errOut)
	}
}

func TestRunTakesStrategyFilesAndFolders(t *testing.T) {
	code, out, errOut := run(t, "run", "--strategies", "classify,../../strategies/classify-budgeted.yaml", "../../scenarios/retry-after-above-cap.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "classify-budgeted") {
		t.Errorf("no classify-budgeted column:\n%s", out)
	}
	code, _, errOut = run(t, "run", "--strategies", "classify,../../strategies/classify-budgeted.yaml,../../strategies", "../../scenarios/conflict.yaml")
	if code != exitBadInput || !strings.Contains(errOut, "given twice") {
		t.Fatalf("exit %d, stderr %s: a strategy given twice must be bad input", code, errOut)
	}
}

// The strategies of strategies/ meet the budgets the default suite sets
// for them, as the presets do (harness/e2e_test.go).
func TestTheStrategiesFolderMeetsItsBudgets(t *testing.T) {
	computeOnly(t)
	strategies, err := strategiesFrom("../../strategies")
	if err != nil {
		t.Fatal(err)
	}
	scs, err := scenario.Load("../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harness.Run(context.Background(), scs, strategies, harness.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	violations, err := harness.Check(scs, rep.Results)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, v := range violations {
		buf.WriteString(v.String() + "\n")
	}
	if buf.Len() > 0 {
		t.Fatal(buf.String())
	}
}

// Every preset, written to a file with `faultbench strategies NAME >
// f.yaml` and run from that file, gives the preset's figures on every
// scenario of the default suite: nothing of a run depends on the
// strategy's name (harness seeds by scenario and turn), and the file says
// all a preset is. The presets of the default run are the package's
// defaultSuite; the named-only ones run beside the saved files.
func TestAPresetSavedToAFileReproducesThePreset(t *testing.T) {
	computeOnly(t)
	dir := t.TempDir()
	list := slices.Clone(namedOnly)
	for _, name := range presetNames() {
		code, out, errOut := run(t, "strategies", name)
		if code != exitOK {
			t.Fatalf("strategies %s: exit %d: %s", name, code, errOut)
		}
		file := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
			t.Fatal(err)
		}
		list = append(list, file)
	}
	code, saved, errOut := run(t, "run", "--format", "json", "--strategies", strings.Join(list, ","), "../../scenarios/")
	if code != exitOK {
		t.Fatalf("run --strategies <saved presets>: exit %d: %s", code, errOut)
	}
	type key struct{ scenario, strategy string }
	results := func(report string) map[key]map[string]any {
		var doc struct {
			Results []map[string]any `json:"results"`
		}
		if err := json.Unmarshal([]byte(report), &doc); err != nil {
			t.Fatal(err)
		}
		out := map[key]map[string]any{}
		for _, r := range doc.Results {
			out[key{r["scenario"].(string), r["strategy"].(string)}] = r
		}
		return out
	}
	presets := results(defaultSuiteJSON(t))
	fromFiles := results(saved)
	for k, r := range fromFiles {
		if slices.Contains(namedOnly, k.strategy) {
			presets[k] = r
		}
	}
	compared := 0
	for k, r := range fromFiles {
		name, custom := strings.CutSuffix(k.strategy, "-custom")
		if !custom {
			continue
		}
		want, ok := presets[key{k.scenario, name}]
		if !ok {
			t.Errorf("%s × %s: no run of the preset %s", k.scenario, k.strategy, name)
			continue
		}
		r["strategy"] = name
		if compared++; !reflect.DeepEqual(r, want) {
			t.Errorf("%s × %s: the saved file gives %v attempts, %v ms of waits, %v; the preset %v, %v ms, %v",
				k.scenario, name, r["attempts"], r["wait_ms"], r["outcome"], want["attempts"], want["wait_ms"], want["outcome"])
		}
	}
	if compared != len(presets) {
		t.Errorf("compared %d runs of saved presets, want one for each of the %d preset runs", compared, len(presets))
	}
}

// Where each preset comes from cites what a user can look up (a project,
// a file, a constant, docs/strategies.md), never a path of this
// repository's own notes that users do not have.
func TestStrategiesCitePublicSources(t *testing.T) {
	code, out, errOut := run(t, "strategies")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, bad := range []string{"reference/", "shared/", "SPEC"} {
		if strings.Contains(out, bad) {
			t.Errorf("faultbench strategies cites %q", bad)
		}
	}
}
