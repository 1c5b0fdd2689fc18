package scenario

import (
	"fmt"
	"slices"
	"strings"
)

// GradeChecks are the names a scenario's grade list may hold: the checks
// of `faultbench grade` (package grade, docs/grade.md) that judge a
// client's journal in that scenario. The grade package's checks carry
// exactly these names.
var GradeChecks = []string{
	"retry-after", "retry-after-ms", "should-retry-false", "permanent",
	"bounded", "backoff", "jitter", "recovers", "stream-restarts",
	"hang", "overflow", "fallback",
	"layers", "stream-error", "budget", "ladder", "outage", "unbounded",
}

// grade checks that each name of the scenario's grade list is a check.
func (v *validator) grade(s *Scenario) {
	for i, name := range s.Grade {
		if !slices.Contains(GradeChecks, name) {
			v.errorf(fmt.Sprintf("grade[%d]", i), "%s is not a check of faultbench grade (checks: %s)", quote(name), strings.Join(GradeChecks, ", "))
		}
	}
}
