package mockllm

import (
	"slices"
	"strconv"
)

// SessionSummary is one session's journal in a line: what one client did
// with one scenario.
type SessionSummary struct {
	Scenario string
	Session  string
	// Wires lists the APIs the session's requests came by, in order of
	// first use ("anthropic", "openai").
	Wires    []string
	Requests int
	// Statuses is what each request got: its status, or, when no status
	// came (a reset, a hang, garbage), its kind.
	Statuses     []string
	InputTokens  int // submitted: every model request's, failed or not (count_tokens submits none)
	OutputTokens int
	// SpanMS is the time of the last request since the session began.
	SpanMS int64
	// RetryAfterAsked counts the answers that asked for a wait
	// (retry-after, retry-after-ms) and were followed by another request;
	// RetryAfterHonored those whose next request waited at least that.
	RetryAfterAsked   int
	RetryAfterHonored int
}

// Summarize sums a journal up per session (scenario and session name), in
// the order of each session's first request.
func Summarize(entries []Entry) []SessionSummary {
	type key struct{ scenario, session string }
	index := map[key]int{}
	var out []SessionSummary
	for _, e := range entries {
		k := key{e.Scenario, e.Session}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, SessionSummary{Scenario: e.Scenario, Session: e.Session})
		}
		s := &out[i]
		s.Requests++
		if e.Status != 0 {
			s.Statuses = append(s.Statuses, strconv.Itoa(e.Status))
		} else {
			s.Statuses = append(s.Statuses, e.Kind)
		}
		if e.Route == "" { // count_tokens counts, but submits nothing to a model
			s.InputTokens += e.InputTokens
		}
		s.OutputTokens += e.OutputTokens
		s.SpanMS = max(s.SpanMS, e.TimeMS)
		if e.HonoredRetryAfter != nil {
			s.RetryAfterAsked++
			if *e.HonoredRetryAfter {
				s.RetryAfterHonored++
			}
		}
		if !slices.Contains(s.Wires, e.Wire) {
			s.Wires = append(s.Wires, e.Wire)
		}
	}
	return out
}
