package mockllm

import (
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// TestOutpaced: what the journal records of a paced reply against the
// client's deadline — nothing when the answer (or a stream's first event)
// comes after it, the status and a timeout when only a stream's end does,
// the answer as it was when everything comes in time.
func TestOutpaced(t *testing.T) {
	now := clock.Epoch
	deadline := now.Add(10 * time.Second)
	for _, c := range []struct {
		name       string
		stream     bool
		lag, gen   time.Duration
		wantStatus int
		wantKind   string
	}{
		{"in time", false, time.Second, 2 * time.Second, 200, "ok"},
		{"a plain answer after the deadline", false, time.Second, 20 * time.Second, 0, kindTimeout},
		{"a stream that starts after the deadline", true, 11 * time.Second, time.Second, 0, kindTimeout},
		{"a stream whose end comes after the deadline", true, time.Second, 20 * time.Second, 200, kindTimeout},
		{"a stream in time", true, time.Second, 2 * time.Second, 200, "ok"},
	} {
		r := &reply{stream: c.stream, lag: c.lag, gen: c.gen}
		status, kind := r.outpaced(now, deadline, 200, "ok")
		if status != c.wantStatus || kind != c.wantKind {
			t.Errorf("%s: %d %s, want %d %s", c.name, status, kind, c.wantStatus, c.wantKind)
		}
	}
}
