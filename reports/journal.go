package reports

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// maxStatuses is how many statuses a row of the journal table shows.
const maxStatuses = 12

// Session is one session of a served journal in a line, as the mock sums
// it up (mockllm.SessionSummary has the same fields, so one converts to
// the other): reports reads no package of the mock for it.
type Session struct {
	Scenario string
	Session  string
	// Wires lists the APIs the session's requests came by, in order of
	// first use.
	Wires    []string
	Requests int
	// Statuses is what each request got: its status, or its kind when no
	// status came.
	Statuses     []string
	InputTokens  int
	OutputTokens int
	// SpanMS is the time of the last request since the session began.
	SpanMS int64
	// RetryAfterAsked counts the answers that asked for a wait and were
	// followed by another request; RetryAfterHonored those whose next
	// request waited at least that.
	RetryAfterAsked   int
	RetryAfterHonored int
}

// Journal writes a served journal as a ledger, one row per session: what a
// client did against `faultbench serve` — its requests, what each got, the
// tokens it submitted, and how often it waited what retry-after asked.
func Journal(w io.Writer, sessions []Session) error {
	var buf bytes.Buffer
	buf.WriteString("\n== journal ==\n\n")
	if len(sessions) == 0 {
		buf.WriteString("No requests.\n")
	} else {
		header := []string{"scenario", "session", "api", "statuses", "requests", "input tokens", "output tokens", "last at", "retry-after honored"}
		rows := make([][]string, len(sessions))
		for i, s := range sessions {
			statuses := s.Statuses
			more := ""
			if len(statuses) > maxStatuses {
				more = fmt.Sprintf(" ... +%d", len(statuses)-maxStatuses)
				statuses = statuses[:maxStatuses]
			}
			honored := "-"
			if s.RetryAfterAsked > 0 {
				honored = fmt.Sprintf("%d/%d", s.RetryAfterHonored, s.RetryAfterAsked)
			}
			rows[i] = []string{
				s.Scenario, s.Session, strings.Join(s.Wires, ","), strings.Join(statuses, " ") + more,
				strconv.Itoa(s.Requests), formatInt(int64(s.InputTokens)), formatInt(int64(s.OutputTokens)),
				(time.Duration(s.SpanMS) * time.Millisecond).String(), honored,
			}
		}
		if err := renderAligned(&buf, header, rows, 4); err != nil {
			return fmt.Errorf("reports: journal: %w", err)
		}
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing journal: %w", err)
	}
	return nil
}
