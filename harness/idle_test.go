package harness

import (
	"testing"

	"github.com/faultbench/faultbench/scenario"
)

// A fleet keeps as many connections idle as it has requests in flight, so
// that its turns reuse them instead of dialing; lone turns keep two.
func TestIdleConnectionsFollowAWorkloadsConcurrency(t *testing.T) {
	lone := &scenario.Scenario{}
	fleet := &scenario.Scenario{Workload: scenario.Workload{Turns: 1000, Concurrency: 50}}
	if n := idlePerRun([]job{{sc: lone}}); n != 2 {
		t.Fatalf("lone turns keep %d idle connections, want 2", n)
	}
	if n := idlePerRun([]job{{sc: lone}, {sc: fleet}}); n != 50 {
		t.Fatalf("a fleet of concurrency 50 keeps %d idle connections, want 50", n)
	}
}
