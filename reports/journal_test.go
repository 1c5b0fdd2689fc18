package reports

import (
	"bytes"
	"strings"
	"testing"
)

func TestJournalTable(t *testing.T) {
	var buf bytes.Buffer
	err := Journal(&buf, []Session{{
		Scenario: "rate-limit-burst", Session: "default", Wires: []string{"anthropic"}, Requests: 14,
		Statuses:    strings.Fields("429 429 429 429 429 429 429 429 429 429 429 429 429 200"),
		InputTokens: 378000, OutputTokens: 800, SpanMS: 10500, RetryAfterAsked: 13, RetryAfterHonored: 1,
	}})
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"== journal ==", "rate-limit-burst", "378,000", "... +2", "1/13", "10.5s"} {
		if !strings.Contains(out, want) {
			t.Errorf("journal table lacks %q:\n%s", want, out)
		}
	}
	buf.Reset()
	if err := Journal(&buf, nil); err != nil || !strings.Contains(buf.String(), "No requests.") {
		t.Errorf("empty journal: %v %q", err, buf.String())
	}
}
