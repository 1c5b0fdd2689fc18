package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// TestStressTenThousandScenarios is the figure of docs/security.md: `run`
// over 10,000 scenarios (the default suite's files copied, renamed) with
// blind and classify stays under 300 MiB of peak RSS, as the command line
// measures it. It takes minutes, so it runs only when asked:
//
//	FAULTBENCH_STRESS=1 go test -run StressTenThousandScenarios -v -timeout 30m ./cmd/faultbench/
func TestStressTenThousandScenarios(t *testing.T) {
	if os.Getenv("FAULTBENCH_STRESS") == "" {
		t.Skip("set FAULTBENCH_STRESS=1 to run")
	}
	const n = 10_000
	dir := t.TempDir()
	files := stressSources(t)
	name := regexp.MustCompile(`(?m)^name: *(\S+)`)
	for i := range n {
		src := files[i%len(files)]
		renamed := name.ReplaceAllString(src, fmt.Sprintf("name: $1-%05d", i))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%05d.yaml", i)), []byte(renamed), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "report.json")
	code, _, errOut := run(t, "run", dir, "--strategies", "blind,classify", "--format", "json", "--out", out)
	peak := peakRSS(t)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), `"scenario": `); got != 2*n {
		t.Fatalf("the report holds %d results, want %d", got, 2*n)
	}
	t.Logf("%d scenarios × blind, classify: peak RSS %d MiB, report %d MB", n, peak>>20, len(data)>>20)
	if peak > 300<<20 {
		t.Fatalf("peak RSS %d MiB, over the 300 MiB of the figure", peak>>20)
	}
}

// stressSources is the text of each default scenario whose expect block
// names presets only (a budget for a strategy file is refused when that
// file is not in the run).
func stressSources(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("../../scenarios/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no default scenarios: %v", err)
	}
	var out []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Parse(p, data)
		if err != nil {
			t.Fatal(err)
		}
		presets := true
		for strategy := range sc.Expect {
			if _, ok := recovery.Preset(strategy); !ok {
				presets = false
			}
		}
		if presets {
			out = append(out, string(data))
		}
	}
	return out
}

// peakRSS is the process's peak resident set size so far, from /proc.
func peakRSS(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc here")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb); err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmHWM in /proc/self/status")
	return 0
}

// TestCeilingFilesAreValid keeps the files of docs/security.md's figures
// for run at the ceilings valid as the ceilings change: each scenario
// validates, each strategy file loads.
func TestCeilingFilesAreValid(t *testing.T) {
	if code, _, errOut := run(t, "validate", "testdata/ceilings"); code != 0 {
		t.Fatalf("validate: exit %d: %s", code, errOut)
	}
	strategies, err := filepath.Glob("testdata/ceilings/strategies/*.yaml")
	if err != nil || len(strategies) == 0 {
		t.Fatalf("no strategy files: %v", err)
	}
	for _, f := range strategies {
		if code, _, errOut := run(t, "strategies", f); code != 0 {
			t.Errorf("strategies %s: exit %d: %s", f, code, errOut)
		}
	}
}
