package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/faultbench/faultbench"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
	"github.com/faultbench/faultbench/scenario"
)

// builtInNote is what run and validate say when, with no folder given and
// no scenarios/ folder here, they read the suite built into the binary.
const builtInNote = "faultbench: no scenarios/ folder here: using the suite built into faultbench " +
	"(`faultbench init` writes its files: scenarios/ and strategies/)\n"

// suiteFiles lists the built-in suite's files under dir ("scenarios" or
// "strategies"), as slash paths in name order.
func suiteFiles(dir string) ([]string, error) {
	files, err := fs.Glob(faultbench.Suite(), dir+"/*.yaml")
	if err != nil {
		return nil, fmt.Errorf("built-in suite: %w", err)
	}
	slices.Sort(files)
	return files, nil
}

// builtInScenarios parses the built-in suite's scenarios; each is named by
// the path `faultbench init` writes it to.
func builtInScenarios() ([]*scenario.Scenario, error) {
	return parseSuite("scenarios", scenario.Parse)
}

// builtInStrategies parses the built-in suite's example strategies.
func builtInStrategies() ([]recovery.Strategy, error) {
	return parseSuite("strategies", strategyfile.Parse)
}

// parseSuite parses every file of the built-in suite's folder dir with
// parse, in name order.
func parseSuite[T any](dir string, parse func(file string, data []byte) (T, error)) ([]T, error) {
	files, err := suiteFiles(dir)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, f := range files {
		data, err := fs.ReadFile(faultbench.Suite(), f)
		if err != nil {
			return nil, fmt.Errorf("built-in suite: %w", err)
		}
		v, err := parse(f, data)
		if err != nil {
			return nil, fmt.Errorf("built-in suite: %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}

// useBuiltIn says whether a command given no scenario path reads the
// built-in suite: when there is no scenarios/ folder here.
func useBuiltIn(args []string) bool {
	if len(args) > 0 {
		return false
	}
	info, err := os.Stat("scenarios")
	return err != nil || !info.IsDir()
}

// writeSuite writes the built-in suite under dir (scenarios/ and
// strategies/) and lists what it wrote on w. Without force it writes
// nothing if any of its files is already there.
func writeSuite(w io.Writer, dir string, force bool) error {
	var files []string
	for _, sub := range []string{"scenarios", "strategies"} {
		f, err := suiteFiles(sub)
		if err != nil {
			return err
		}
		files = append(files, f...)
	}
	if !force {
		var there []string
		for _, f := range files {
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f))); err == nil {
				there = append(there, filepath.Join(dir, filepath.FromSlash(f)))
			}
		}
		if len(there) > 0 {
			more := ""
			if len(there) > 3 {
				more = fmt.Sprintf(" and %d more", len(there)-3)
				there = there[:3]
			}
			return bad(fmt.Errorf("init: %s%s already there; nothing written (--force overwrites them)", strings.Join(there, ", "), more))
		}
	}
	counts := map[string]int{}
	for _, f := range files {
		data, err := fs.ReadFile(faultbench.Suite(), f)
		if err != nil {
			return fmt.Errorf("built-in suite: %w", err)
		}
		target := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		counts[path.Dir(f)]++
	}
	scenarios := filepath.Join(dir, "scenarios") + string(filepath.Separator)
	strategies := filepath.Join(dir, "strategies") + string(filepath.Separator)
	fmt.Fprintf(w, "wrote %d scenarios to %s and %d strategy files to %s\n", counts["scenarios"], scenarios, counts["strategies"], strategies)
	fmt.Fprintf(w, "run them:  faultbench run %s\n", scenarios)
	return nil
}
