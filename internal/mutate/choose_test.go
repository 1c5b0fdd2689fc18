package main

import (
	"slices"
	"testing"
)

// -only picks by name, -dir by the file's own folder (a subfolder is
// another folder), and both together take what both pick.
func TestChoose(t *testing.T) {
	mutants := []Mutant{
		{Name: "kimi-cap", File: "recovery/presets.go"},
		{Name: "sdk-jitter", File: "recovery/backoff.go"},
		{Name: "wire-ids", File: "mockllm/internal/wire/ids.go"},
		{Name: "mock-strays", File: "mockllm/strays.go"},
	}
	for _, c := range []struct {
		only, dirs string
		want       []string
	}{
		{"", "", []string{"kimi-cap", "sdk-jitter", "wire-ids", "mock-strays"}},
		{"kimi,strays", "", []string{"kimi-cap", "mock-strays"}},
		{"", "mockllm", []string{"mock-strays"}},
		{"", "recovery/, mockllm/internal/wire", []string{"kimi-cap", "sdk-jitter", "wire-ids"}},
		{"sdk", "recovery", []string{"sdk-jitter"}},
		{"kimi", "mockllm", nil},
	} {
		var got []string
		for _, m := range choose(mutants, c.only, c.dirs) {
			got = append(got, m.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("-only %q -dir %q: %v, want %v", c.only, c.dirs, got, c.want)
		}
	}
}
