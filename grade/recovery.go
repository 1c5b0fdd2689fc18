package grade

import (
	"fmt"
	"strings"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// recovers judges a scenario whose fault passes: the client's last request
// must get a complete answer, and the process must exit 0.
func recovers(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	n := len(att)
	switch {
	case len(r.attempts()) == 0:
		return Fail, "the client sent no request (" + r.ended() + ")"
	case n == 0:
		return NotReached, r.unmet("met the scenario's fault")
	case answered(att[0].Kind):
		return NotReached, "the script's first answer was complete: the fault was not met"
	}
	last := att[n-1]
	switch {
	case answered(last.Kind) && r.Exit == 0 && !r.TimedOut:
		return Pass, fmt.Sprintf("answered at attempt %d (gaps %s)", n, gapList(failureGaps(r)))
	case answered(last.Kind):
		return Fail, fmt.Sprintf("got its answer at attempt %d, yet %s", n, r.ended())
	}
	ev := fmt.Sprintf("gave up after %d %s: the last answer was %s (%s)", n, plural(n, "attempt"), answerOf(last), r.ended())
	if r.Exit == 0 && !r.TimedOut && r.Err == nil {
		ev = "reported success although it failed: " + ev
	}
	return Fail, ev
}

// answerOf names what an attempt got, for evidence: a stream cut as a
// cut ("a stream cut after 3 events"), else what its status and kind say.
func answerOf(e mockllm.Entry) string {
	if n, ok := strings.CutPrefix(e.Fault, "{cut_after: "); ok {
		n, _, _ = strings.Cut(n, ",")
		return "a stream cut after " + strings.TrimSuffix(n, "}") + " events"
	}
	return what(e.Status, e.Kind)
}

// what names an answer for evidence: "529 overloaded", "a reset".
func what(status int, kind string) string {
	if status == 0 {
		return "no answer (" + kind + ")"
	}
	return fmt.Sprintf("%d %s", status, kind)
}

// shrinks judges the request after a context overflow: it must ask for
// fewer output tokens or send less input than the one refused; on the
// Gemini wire, whose window holds the input alone, less input.
func shrinks(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	at := first(att, overflowed)
	if at < 0 {
		return NotReached, r.unmet("overflowed the context")
	}
	if at+1 == len(att) {
		return Fail, "gave up after the overflow (" + r.ended() + ")"
	}
	e, next := att[at], att[at+1]
	limit := 0
	if r.Scenario != nil {
		limit = r.Scenario.Models[r.Scenario.Turn.Model].MaxOutput
	}
	asked := func(mt int) int { // an OpenAI request may leave max_tokens out: the model's limit
		if mt == 0 {
			return limit
		}
		return mt
	}
	if e.Wire == scenario.WireGemini { // Gemini counts the output apart: only less input fits the window
		if next.InputTokens < e.InputTokens {
			return Pass, fmt.Sprintf("resent %d input tokens (was %d)", next.InputTokens, e.InputTokens)
		}
		return Fail, fmt.Sprintf("resent %d input tokens (was %d): on Gemini only less input fits the window, whatever maxOutputTokens asks", next.InputTokens, e.InputTokens)
	}
	if asked(next.MaxTokens) < asked(e.MaxTokens) || next.InputTokens < e.InputTokens {
		return Pass, fmt.Sprintf("resent with max_tokens %d (was %d) and %d input tokens (was %d)", next.MaxTokens, e.MaxTokens, next.InputTokens, e.InputTokens)
	}
	return Fail, fmt.Sprintf("resent the request unchanged: max_tokens %d, %d input tokens", next.MaxTokens, next.InputTokens)
}

// overflowed says whether an attempt was refused for the context window:
// the journal's context_overflow, or a 400 in Gemini's words "The input
// token count (N) exceeds the maximum number of tokens allowed (M).",
// which the journal calls invalid_request when a client meets it on
// another wire than Gemini's — so that the same give-up after the same
// overflow gets the same verdict, in the same words, on every wire.
func overflowed(e mockllm.Entry) bool {
	return e.Kind == "context_overflow" ||
		(e.Status == 400 && strings.Contains(e.ErrorMessage, "input token count") && strings.Contains(e.ErrorMessage, "exceeds the maximum number of tokens"))
}

// fallsBack judges a scenario whose primary model stays overloaded: the
// client must ask another model, and get its answer there.
func fallsBack(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	if len(att) == 0 {
		return NotReached, r.unmet("met the overload")
	}
	primary := att[0].Model
	if answered(att[0].Kind) {
		return NotReached, "the script's first answer was complete: " + primary + " was not overloaded"
	}
	for i, e := range att {
		if e.Model == primary {
			continue
		}
		last := att[len(att)-1]
		if answered(last.Kind) {
			return Pass, fmt.Sprintf("switched to %s after %d %s on %s, and got its answer", e.Model, i, plural(i, "failure"), primary)
		}
		return Fail, fmt.Sprintf("switched to %s after %d %s, but the last answer was %s (%s)", e.Model, i, plural(i, "failure"), answerOf(last), r.ended())
	}
	return Fail, fmt.Sprintf("%d %s, all to %s (%s)", len(att), plural(len(att), "attempt"), primary, r.ended())
}
