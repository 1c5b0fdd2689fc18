package main

import "testing"

// TestEveryMutantMatchesTheCode: every mutant of the list names a file
// whose snippet occurs exactly once, so that a change that moves code
// fails CI here instead of the next mutation run. The list is read from
// the module root, two folders up.
func TestEveryMutantMatchesTheCode(t *testing.T) {
	mutants, err := load("mutants.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(mutants) == 0 {
		t.Fatal("the list is empty")
	}
	names := map[string]bool{}
	for _, m := range mutants {
		if names[m.Name] {
			t.Errorf("%s: named twice", m.Name)
		}
		names[m.Name] = true
		if p := check("../..", m); p != "" {
			t.Errorf("%s: %s", m.Name, p)
		}
	}
}
