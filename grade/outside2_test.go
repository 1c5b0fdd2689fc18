package grade

import (
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// Edges crossed unseen by the second outside set (docs/mutation.md, "From
// outside"): each test sits on the boundary its mutant moves.

// A scenario that needs 3.33× to fit is told it needs 4, not 3: at 3 it
// does not fit (o2-warp-needs-speed-rounds-down).
func TestOutside2NeedsSpeedRoundsUp(t *testing.T) {
	sc := &scenario.Scenario{Name: "long", Script: []scenario.Rule{{When: scenario.When{Before: scenario.Duration(100 * time.Second)}, Respond: scenario.Respond{Status: 529}}}}
	if got := NeedsSpeed(sc, 120*time.Second); got != 4 {
		t.Errorf("NeedsSpeed(100 s, timeout 120 s) = %d, want 4", got)
	}
	if Fits(sc, 120*time.Second, 3) || !Fits(sc, 120*time.Second, 4) {
		t.Errorf("Fits at 3: %v, at 4: %v; want false, true", Fits(sc, 120*time.Second, 3), Fits(sc, 120*time.Second, 4))
	}
}

// layersRun is a persistent 529 whose attempts sent these
// X-Stainless-Retry-Count values.
func layersRun(counts ...int) Run {
	sc := &scenario.Scenario{Name: "layers", Grade: []string{"layers"}, Script: []scenario.Rule{{Respond: scenario.Respond{Status: 529}}}}
	var es []mockllm.Entry
	for i, c := range counts {
		es = append(es, mockllm.Entry{N: i + 1, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1, RetryCount: &c, GapMS: 100})
	}
	return Run{Scenario: sc, Entries: es, Exit: 1}
}

// A count no higher than the one before begins a round: 0, 1, 1, 2 is two
// loops (o2-layers-equal-count-same-round); a last round cut short does not
// make one loop two: 0, 0, 1 is one (o2-layers-last-round-judged).
func TestOutside2LayersAtTheEdges(t *testing.T) {
	for _, c := range []struct {
		counts []int
		want   Status
		says   string
	}{
		{[]int{0, 1, 1, 2}, Fail, "2 layers: 2 × 2 = 4"},
		{[]int{0, 0, 1}, Pass, "1 layer: 3 attempts"},
	} {
		st, ev := layered(layersRun(c.counts...), Bounds{})
		if st != c.want || !strings.Contains(ev, c.says) {
			t.Errorf("counts %v: %s %q, want %s saying %q", c.counts, st, ev, c.want, c.says)
		}
	}
}
