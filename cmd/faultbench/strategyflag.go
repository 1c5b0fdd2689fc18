package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
)

// namedOnly are the presets `run` and `grade` compare only when named:
// the products' own retry loops. Compared by default too, they would push
// the default table past its 330 lines.
var namedOnly = []string{"codex", "ai-sdk", "langchain-js"}

// defaultNames are the strategies `run` and `grade` compare when no
// --strategies is given: every preset but namedOnly.
func defaultNames() []string {
	var names []string
	for _, n := range presetNames() {
		if !slices.Contains(namedOnly, n) {
			names = append(names, n)
		}
	}
	return names
}

func presetNames() []string {
	var names []string
	for _, s := range recovery.Presets() {
		names = append(names, s.Name)
	}
	return names
}

// strategiesFrom resolves a comma-separated list of strategies: each entry
// is a preset's name, a strategy file, or a folder of them (every .yaml
// and .yml file in it). Two strategies of the same name are an error.
func strategiesFrom(list string) ([]recovery.Strategy, error) {
	var out []recovery.Strategy
	seen := map[string]string{}
	add := func(s recovery.Strategy, from string) error {
		if prev, ok := seen[s.Name]; ok {
			return fmt.Errorf("--strategies: %q given twice (%s, %s)", s.Name, prev, from)
		}
		seen[s.Name] = from
		out = append(out, s)
		return nil
	}
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		loaded, err := resolveStrategy(entry)
		if err != nil {
			return nil, fmt.Errorf("--strategies: %w", err)
		}
		for _, s := range loaded {
			if err := add(s, entry); err != nil {
				return nil, err
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--strategies: no strategy given")
	}
	return out, nil
}

// resolveStrategy reads one entry of --strategies (or an argument of
// `faultbench strategies`): a preset's name first, else a file or folder.
// Its errors name no flag: the caller says where the entry came from.
func resolveStrategy(entry string) ([]recovery.Strategy, error) {
	if s, ok := recovery.Preset(entry); ok {
		return []recovery.Strategy{s}, nil
	}
	info, err := os.Stat(entry)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("unknown strategy %q (presets: %s; or a strategy file or folder)", entry, strings.Join(presetNames(), ", "))
	case err != nil:
		return nil, err
	case info.IsDir():
		ss, err := strategyfile.LoadDir(entry)
		if err != nil {
			return nil, err
		}
		if len(ss) == 0 {
			return nil, fmt.Errorf("no strategy files in %s", entry)
		}
		return ss, nil
	}
	s, err := strategyfile.Load(entry)
	if err != nil {
		return nil, err
	}
	return []recovery.Strategy{s}, nil
}
