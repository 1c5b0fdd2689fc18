package explore

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/scenario"
)

// TestFaultHeadersAreHeaders: every header of the generator's faults is a
// header a real API sends (a retry or rate-limit directive), with a value
// of its own, not another header's name ("" takes a default header away).
func TestFaultHeadersAreHeaders(t *testing.T) {
	seen := 0
	for _, f := range faults {
		for k, v := range f.Respond.Headers {
			seen++
			name := strings.ToLower(k)
			if !strings.Contains(name, "retry") && !strings.Contains(name, "ratelimit") {
				t.Errorf("%s: %q is no retry or rate-limit header", f.Name, k)
			}
			if http.CanonicalHeaderKey(v) == http.CanonicalHeaderKey(k) || strings.Contains(v, "ratelimit") {
				t.Errorf("%s: header %q has the value %q", f.Name, k, v)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no fault has a header")
	}
}

// TestReachedNamesAShrunkFault: what the shrinker does to a fault's
// figures (fewer events before a cut, a slower or faster dribble, a
// shorter delay short of the client's deadline, a longer one past it)
// leaves it the fault it was: Reached names a shrunk script's faults too.
func TestReachedNamesAShrunkFault(t *testing.T) {
	for name, f := range map[string]scenario.Fault{
		"cut-midway":  {Kind: scenario.FaultCut, After: 1},
		"dribble":     {Dribble: scenario.Duration(2 * time.Second)},
		"dribble-cut": {Dribble: scenario.Duration(3 * time.Second), Kind: scenario.FaultCut, After: 2},
		"delay":       {Delay: scenario.Duration(3 * time.Second)},
		"timeout":     {Delay: scenario.Duration(20 * time.Minute)},
	} {
		sc := &scenario.Scenario{Script: []scenario.Rule{{Respond: scenario.Respond{Fault: f}}}}
		if got := Reached(sc); !slices.Contains(got, name) {
			t.Errorf("%s shrunk to %+v: Reached says %v", name, f, got)
		}
	}
}
