package recovery_test

import (
	"flag"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/recovery"
)

// enginePaths are the engine's paths the property generators must reach,
// each told by the events of a turn.
var enginePaths = map[string]func(tr trace) bool{
	"max_tokens adjustment": func(tr trace) bool { return has(tr, recovery.EventAdjust, "") },
	"compaction":            func(tr trace) bool { return has(tr, recovery.EventCompact, "") },
	"fallback after overloads": func(tr trace) bool {
		return has(tr, recovery.EventFallback, "consecutive overloads")
	},
	"cancellation during a sleep": cancelledInSleep,
	"circuit breaker opens": func(tr trace) bool {
		return has(tr, recovery.EventCircuit, "consecutive overloads")
	},
	"adaptive limit cut": func(tr trace) bool { return has(tr, recovery.EventLimit, "cut") },
	"learned window": func(tr trace) bool {
		as := tr.attempts()
		for i, a := range as[:max(len(as)-1, 0)] {
			if a.Failure.Kind == recovery.KindContextOverflow && a.Failure.Overflow.Window == 0 && !sameRequest(a.Request, as[i+1].Request) {
				return true
			}
		}
		return false
	},
	"s11 ceiling": func(tr trace) bool {
		as := tr.attempts()
		if tr.s.Escalation.Ceiling == 0 || tr.err != nil || len(as) == 0 {
			return false
		}
		last := as[len(as)-1]
		return tr.res.Response.StopReason == "max_tokens" && 2*last.Request.MaxTokens > tr.s.Escalation.Ceiling
	},
	"preflight": func(tr trace) bool {
		if !tr.s.Preflight {
			return false
		}
		for _, e := range tr.events {
			switch e.Type {
			case recovery.EventAttempt:
				return false
			case recovery.EventAdjust, recovery.EventCompact:
				return true
			}
		}
		return false
	},
	"failed compaction": func(tr trace) bool {
		g, ok := recovery.AsGiveUp(tr.err)
		return ok && g.Stop == recovery.StopCompactionFailed
	},
}

func has(tr trace, typ recovery.EventType, reason string) bool {
	return slices.ContainsFunc(tr.events, func(e recovery.Event) bool {
		return e.Type == typ && strings.Contains(e.Reason, reason)
	})
}

// TestGeneratorsReachEveryPath fails when a run of the recovery
// properties' generator at CI's depth (100 checks, from a fixed seed so
// that the answer does not depend on luck) leaves a path of enginePaths
// unvisited: a property cannot catch a bug on a path it never takes.
func TestGeneratorsReachEveryPath(t *testing.T) {
	for name, v := range map[string]string{"rapid.checks": "100", "rapid.seed": "7", "rapid.nofailfile": "true"} {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = flag.Set(name, old) })
	}
	seen := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		for name, visits := range enginePaths {
			if visits(tr) {
				seen[name]++
			}
		}
	})
	for name := range enginePaths {
		if seen[name] == 0 {
			t.Errorf("100 generated turns never took the path: %s", name)
		}
	}
	t.Logf("visits per path in 100 turns: %v", seen)
}
