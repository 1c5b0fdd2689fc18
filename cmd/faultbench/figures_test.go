package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// figuresGolden holds every figure the default suite reports, one line
// per scenario × strategy: the JSON report's scalar keys and its
// workload object, without the attempt logs. TestDefaultSuiteFigures
// fails, naming the scenario, the strategy and the key, when any of them
// moves; a change that is meant to move one rewrites the file with the
// README's command (readmeUpdate), so that the move is accepted on
// purpose and shows in the diff.
const figuresGolden = "testdata/default-suite-figures.jsonl"

// figures is a result's figures: its keys but the lists (the attempt,
// repair and event logs), and the same of its nested objects.
func figures(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if _, list := e.([]any); list {
				continue
			}
			out[k] = figures(e)
		}
		return out
	default:
		return v
	}
}

func figureLines(t *testing.T, report []byte) []string {
	t.Helper()
	var rep struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range rep.Results {
		b, err := json.Marshal(figures(r)) // encoding/json sorts map keys
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	return lines
}

// TestDefaultSuiteFigures runs the default suite as `faultbench run
// scenarios/ --format json` does (the package's defaultSuite) and compares
// every figure with the golden file.
func TestDefaultSuiteFigures(t *testing.T) {
	got := figureLines(t, []byte(defaultSuiteJSON(t)))
	if *update {
		if err := os.MkdirAll(filepath.Dir(figuresGolden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(figuresGolden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(figuresGolden)
	if err != nil {
		t.Fatalf("%v: rewrite it with %s", err, readmeUpdate)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	key := func(line string) (string, map[string]any) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v", figuresGolden, err)
		}
		return fmt.Sprintf("%v × %v", m["scenario"], m["strategy"]), m
	}
	wantBy := map[string]map[string]any{}
	for _, l := range want {
		k, m := key(l)
		wantBy[k] = m
	}
	seen := map[string]bool{}
	moved := 0
	for _, l := range got {
		k, m := key(l)
		seen[k] = true
		w, ok := wantBy[k]
		if !ok {
			t.Errorf("%s: a new run, not in %s", k, figuresGolden)
			moved++
			continue
		}
		for _, d := range diffFigures("", w, m) {
			if moved++; moved <= 40 {
				t.Errorf("%s: %s", k, d)
			}
		}
	}
	for k := range wantBy {
		if !seen[k] {
			t.Errorf("%s: in %s, no longer run", k, figuresGolden)
			moved++
		}
	}
	if moved > 0 {
		t.Logf("%d figures moved; if that is meant, rewrite the golden file with %s", moved, readmeUpdate)
	}
}

// diffFigures lists the keys whose values differ between want and got,
// by their path.
func diffFigures(path string, want, got map[string]any) []string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	slices.Sort(names)
	var out []string
	for _, k := range names {
		w, g := want[k], got[k]
		wm, wok := w.(map[string]any)
		gm, gok := g.(map[string]any)
		if wok && gok {
			out = append(out, diffFigures(path+k+".", wm, gm)...)
			continue
		}
		wb, _ := json.Marshal(w)
		gb, _ := json.Marshal(g)
		if !bytes.Equal(wb, gb) {
			out = append(out, fmt.Sprintf("%s%s moved: %s → %s", path, k, wb, gb))
		}
	}
	return out
}
