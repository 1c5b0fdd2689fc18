package main

import (
	"fmt"
	"strings"

	"github.com/faultbench/faultbench/recovery"
)

func presetNames() []string {
	var names []string
	for _, s := range recovery.Presets() {
		names = append(names, s.Name)
	}
	return names
}

// strategiesFrom resolves a comma-separated list of preset names.
func strategiesFrom(list string) ([]recovery.Strategy, error) {
	var out []recovery.Strategy
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if seen[name] {
			return nil, fmt.Errorf("--strategies: %q given twice", name)
		}
		seen[name] = true
		s, ok := recovery.Preset(name)
		if !ok {
			return nil, fmt.Errorf("--strategies: unknown strategy %q (known: %s)", name, strings.Join(presetNames(), ", "))
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--strategies: no strategy given")
	}
	return out, nil
}
