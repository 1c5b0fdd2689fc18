package grade

import (
	"fmt"
	"strings"

	"github.com/faultbench/faultbench/mockllm"
)

// streamError judges a scenario whose stream ends in an error event
// inside its HTTP 200 (a fault with error_after), by whether output had
// streamed before the error: the journal's output tokens of that
// attempt, the text and tool arguments of the events sent before it.
//
// Before any output nothing has been shown, and a resend is safe: the
// client must send the request again (a client that gives up there
// fails). After output, the rule eight independent fixes converged on in
// 2026 is to retry only if nothing has been output yet, for a resend
// shows the text and tool calls again; a client that stops and says it
// failed passes, one that resends passes with the card saying so (it is
// safe only if the client threw the partial answer away), and one that
// exits 0 on the half answer, without resending, fails.
func streamError(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	at := first(att, streamFailed)
	if at < 0 {
		return NotReached, r.unmet("met an error inside its stream")
	}
	e := att[at]
	resent := at+1 < len(att)
	got := ""
	if resent {
		if last := att[len(att)-1]; answered(last.Kind) {
			got = fmt.Sprintf(", and got its answer at attempt %d", len(att))
		} else {
			got = ", but the last answer was " + answerOf(last)
		}
	}
	event := fmt.Sprintf("the %s event", e.ErrorType)
	if e.ErrorType == "" {
		event = "the error event"
	}
	if e.OutputTokens == 0 {
		switch {
		case resent:
			return Pass, fmt.Sprintf("resent after %s that came before any output%s", event, got)
		case r.Exit == 0 && !r.TimedOut && r.Err == nil:
			return Fail, fmt.Sprintf("reported success although %s came before any output and it never resent", event)
		}
		return Fail, fmt.Sprintf("gave up after %s that came before any output, where a resend duplicates nothing (%s)", event, r.ended())
	}
	out := fmt.Sprintf("%d output %s", e.OutputTokens, plural(e.OutputTokens, "token"))
	switch {
	case resent:
		return Pass, fmt.Sprintf("resent after %s that came once %s had streamed%s: safe only if the client threw that partial answer away, else its text and tool calls show twice", event, out, got)
	case r.Exit == 0 && !r.TimedOut && r.Err == nil:
		return Fail, fmt.Sprintf("reported success on half an answer: %s ended the stream after %s, and it neither resent nor failed", event, out)
	}
	return Pass, fmt.Sprintf("stopped after %s that came once %s had streamed, without resending what was shown (%s)", event, out, r.ended())
}

// streamFailed says whether an attempt's stream ended in an error event.
func streamFailed(e mockllm.Entry) bool {
	return e.Status == 200 && strings.Contains(e.Fault, "error_after")
}
