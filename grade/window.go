package grade

import (
	"fmt"
	"time"

	"github.com/faultbench/faultbench/mockllm"
)

// missedWindow says whether the client missed the scenario's fault for
// its timing: a rule with a window (when: {before: 2s}) that never
// answered, because the first request the script answered came after the
// window had closed. The session's clock starts at the client's first
// request, so only a client that sent something else first (a side
// request) and its turn later can miss it; the evidence says when:
// "first request at 4.4 s of the session: the fault's window, its first
// 2 s, had closed".
func (r Run) missedWindow() (string, bool) {
	if r.Scenario == nil {
		return "", false
	}
	att := r.judged()
	if len(att) == 0 {
		return "", false
	}
	for i, rule := range r.Scenario.Script {
		before := time.Duration(rule.When.Before)
		if before <= 0 || usedRule(att, i+1) || ms(att[0].TimeMS) < before {
			continue
		}
		return fmt.Sprintf("first request at %s of the session: the fault's window, its first %s, had closed (start-up %s)",
			seconds(ms(att[0].TimeMS)), seconds(before), startup(r)), true
	}
	return "", false
}

// usedRule says whether rule n (1-based) answered any of att.
func usedRule(att []mockllm.Entry, n int) bool {
	for _, e := range att {
		if e.Rule == n {
			return true
		}
	}
	return false
}

// startup writes a run's start-up time for evidence: "4.4 s", or "no
// request" when the client sent none.
func startup(r Run) string {
	if r.Startup < 0 {
		return "no request"
	}
	return seconds(r.Startup.Round(10 * time.Millisecond))
}
