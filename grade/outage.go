package grade

import (
	"fmt"
	"time"

	"github.com/faultbench/faultbench/mockllm"
)

// outage judges a long outage (every request overloaded until the
// scenario's window ends, then answered): the client may ride it out or
// stop, but must be honest either way. It fails when it stays silent
// longer than the bound's silence between two attempts (a stall no user
// can tell from a hang), when it gives up only after keeping at it longer
// than the outage bound (neither a bounded client nor one that rides
// out), when it reports a success it did not get, and when, riding out,
// its first request after the recovery comes later than its longest wait
// before it and the noise (it slept through the recovery).
func outage(r Run, b Bounds) (Status, string) {
	att := r.judged()
	n := len(att)
	if n == 0 || answered(att[0].Kind) {
		return NotReached, r.unmet("met the outage")
	}
	end := recoveryMS(r)
	longest, at := int64(0), 0
	for i, e := range att[1:] {
		if e.GapMS > longest {
			longest, at = e.GapMS, i+2
		}
	}
	if longest > b.silence().Milliseconds() {
		return Fail, fmt.Sprintf("sent nothing for %s before attempt %d, over the %s it may stay silent", minutes(ms(longest)), at, minutes(b.silence()))
	}
	last := att[n-1]
	if answered(last.Kind) {
		if att[0].Model != last.Model {
			return Pass, fmt.Sprintf("fell back to %s after %d %s in %s", last.Model, n-1, plural(n-1, "attempt"), minutes(ms(last.TimeMS)))
		}
		k := max(1, first(att, func(e mockllm.Entry) bool { return e.TimeMS >= end }))
		before := int64(0)
		for _, e := range att[1:k] {
			before = max(before, e.GapMS)
		}
		late := att[k].TimeMS - end
		ev := fmt.Sprintf("rode out the %s outage in %d %s; resumed %s after the recovery (its longest wait before: %s)",
			minutes(ms(end)), k, plural(k, "attempt"), seconds(ms(late)), seconds(ms(before)))
		if late > before+margin(r.Noise) {
			return Fail, ev + ": it slept through the recovery"
		}
		return Pass, ev
	}
	took := ms(last.TimeMS)
	switch {
	case r.TimedOut:
		return Fail, fmt.Sprintf("%d attempts, %s", n, r.ended())
	case r.Exit == 0 && r.Err == nil:
		return Fail, fmt.Sprintf("reported success although it gave up after %d %s in %s", n, plural(n, "attempt"), minutes(took))
	case took > b.outage():
		return Fail, fmt.Sprintf("kept at it %s, over the %s bound, and then gave up anyway (%d attempts, %s)", minutes(took), minutes(b.outage()), n, r.ended())
	}
	return Pass, fmt.Sprintf("gave up after %d %s in %s (%s)", n, plural(n, "attempt"), minutes(took), r.ended())
}

// recoveryMS is when the scenario's outage ends, on the session's clock:
// the latest end of a rule's window.
func recoveryMS(r Run) int64 {
	var end time.Duration
	if r.Scenario != nil {
		for _, rule := range r.Scenario.Script {
			end = max(end, time.Duration(rule.When.Before))
		}
	}
	return end.Milliseconds()
}

// unbounded judges a fault that never passes: a client still retrying
// when the timeout strikes, the scenario's horizon, fails with how many
// attempts it made and how fast.
func unbounded(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	n := len(att)
	if n == 0 || answered(att[0].Kind) {
		return NotReached, r.unmet("met the scenario's fault")
	}
	horizon := r.Timeout * time.Duration(max(1, r.Speed))
	if r.TimedOut && n > 1 {
		span := ms(att[n-1].TimeMS - att[0].TimeMS)
		rate := float64(n-1) / max(span.Minutes(), 1.0/60)
		return Fail, fmt.Sprintf("still retrying at the horizon (%s of its time): %d attempts, %.3g a minute", minutes(horizon), n, rate)
	}
	if r.TimedOut {
		return Fail, fmt.Sprintf("sent 1 attempt and nothing more until the horizon (%s of its time): it stalled", minutes(horizon))
	}
	return Pass, fmt.Sprintf("stopped after %d %s in %s (%s)", n, plural(n, "attempt"), minutes(ms(att[n-1].TimeMS-att[0].TimeMS)), r.ended())
}
