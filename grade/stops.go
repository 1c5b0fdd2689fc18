package grade

import (
	"fmt"
	"time"

	"github.com/faultbench/faultbench/mockllm"
)

// answered says whether an attempt got a complete answer.
func answered(kind string) bool { return kind == "ok" }

// noRetry judges a scenario whose first answer is final (a permanent
// error, or one x-should-retry: false forbids retrying): no later request
// may ask the same model again. Asking another model (a fallback after a
// 404) is allowed.
func noRetry(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	if len(att) == 0 {
		return NotReached, r.unmet("met the scenario's refusal")
	}
	first := att[0]
	if answered(first.Kind) {
		return NotReached, "the script's first answer was complete: the refusal was not met"
	}
	again, resent, other := 0, 0, ""
	for _, e := range att[1:] {
		if e.Model == first.Model {
			again++
			if e.Resend != 0 {
				resent++
			}
		} else if other == "" {
			other = e.Model
		}
	}
	refused := fmt.Sprintf("%d %s", first.Status, first.Kind)
	if again > 0 {
		ev := fmt.Sprintf("asked %s %d more %s after the %s", first.Model, again, plural(again, "time"), refused)
		if resent > 0 {
			ev += fmt.Sprintf(", %d of them the same body again", resent)
		}
		return Fail, ev + " (gaps " + gapList(failureGaps(r)) + ")"
	}
	ev := fmt.Sprintf("stopped after the %s (%s)", refused, r.ended())
	if other != "" {
		ev = fmt.Sprintf("asked %s instead after the %s (%s)", other, refused, r.ended())
	}
	return Pass, ev
}

// bounded judges a scenario that never recovers: the client must stop
// (give up, or get its answer elsewhere) within the bounds' attempts and
// time.
func bounded(r Run, b Bounds) (Status, string) {
	att := r.judged()
	n := len(att)
	switch {
	case n == 0:
		return NotReached, r.unmet("met the scenario's fault")
	case r.TimedOut:
		return Fail, fmt.Sprintf("still retrying after %s: %d %s, gaps %s", seconds(r.Timeout), n, plural(n, "attempt"), gapList(failureGaps(r)))
	case n > b.attempts():
		return Fail, fmt.Sprintf("%d attempts, over the bound of %d (gaps %s; %s)", n, b.attempts(), gapList(failureGaps(r)), r.ended())
	case r.Elapsed > b.time() && r.Elapsed-time.Duration(n)*ms(margin(r.Noise)) <= b.time():
		return Inconclusive, fmt.Sprintf("kept trying for %s, over the bound of %s by less than the noise could add to %d %s: %s",
			seconds(r.Elapsed.Round(100*time.Millisecond)), seconds(b.time()), n, plural(n, "attempt"), noiseNote(r.Noise))
	case r.Elapsed > b.time():
		return Fail, fmt.Sprintf("kept trying for %s, over the bound of %s (%d %s; %s)", seconds(r.Elapsed.Round(100*time.Millisecond)), seconds(b.time()), n, plural(n, "attempt"), r.ended())
	case answered(att[n-1].Kind):
		return Pass, fmt.Sprintf("got an answer from %s at attempt %d", att[n-1].Model, n)
	case n == 1: // within any bound, but it shows no retry policy at all
		return Pass, fmt.Sprintf("never retried: stopped after the first failure (%s)", r.ended())
	}
	return Pass, fmt.Sprintf("gave up after %d %s in %s (%s)", n, plural(n, "attempt"), seconds(ms(att[n-1].TimeMS-att[0].TimeMS)), r.ended())
}

// timesOut judges a scenario whose request hangs: the client must give up
// on it, by retrying or by stopping, within the bounds' time.
func timesOut(r Run, b Bounds) (Status, string) {
	att := r.judged()
	hung := first(att, func(e mockllm.Entry) bool { return e.Fault == "hang" })
	if hung < 0 {
		return NotReached, r.unmet("hung")
	}
	h := att[hung]
	var waited time.Duration
	then := ""
	switch {
	case hung+1 < len(att):
		waited = ms(att[hung+1].TimeMS - h.TimeMS)
		then = "then retried"
		if answered(att[len(att)-1].Kind) {
			then += " and got its answer"
		}
	case r.TimedOut:
		return Fail, fmt.Sprintf("the hung request was still open after %s, when the process was killed", seconds(r.Timeout))
	default:
		waited = r.Elapsed - ms(h.TimeMS)
		then = "then stopped (" + r.ended() + ")"
	}
	waited = waited.Round(100 * time.Millisecond)
	if waited > b.time() {
		return Fail, fmt.Sprintf("gave up on the hung request after %s, over the bound of %s; %s", seconds(waited), seconds(b.time()), then)
	}
	return Pass, fmt.Sprintf("gave up on the hung request after %s; %s", seconds(waited), then)
}
