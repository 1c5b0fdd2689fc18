package property_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/proptest/property"
)

// TestFaultsAreNamedOnceAndListedInTheDocs: every fault of the shared
// vocabulary has a name of its own, and docs/explore.md's table names it
// (a retry-after-Ns fault as `-Ns` after the first).
func TestFaultsAreNamedOnceAndListedInTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/explore.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range property.Faults {
		if seen[f.Name] {
			t.Errorf("%s: named twice", f.Name)
		}
		seen[f.Name] = true
		short, cut := strings.CutPrefix(f.Name, "retry-after")
		if !strings.Contains(string(doc), "`"+f.Name+"`") && !(cut && strings.Contains(string(doc), "`"+short+"`")) {
			t.Errorf("%s: not in docs/explore.md's table of faults", f.Name)
		}
	}
}

// TestServerWaitsAreTheFaultsWaits: the waits the faults ask for, each
// once, shortest first.
func TestServerWaitsAreTheFaultsWaits(t *testing.T) {
	want := []time.Duration{time.Second, 2500 * time.Millisecond, 5 * time.Second, 6 * time.Second,
		12 * time.Second, 30 * time.Second, 120 * time.Second}
	got := property.ServerWaits()
	if len(got) != len(want) {
		t.Fatalf("ServerWaits() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ServerWaits() = %v, want %v", got, want)
		}
	}
}
