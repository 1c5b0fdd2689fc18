package mockllm

import (
	"net/http"
	"strings"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// A scenario writes absolute times (a retry-after HTTP date, Anthropic's
// anthropic-ratelimit-*-reset) on the virtual clock, which starts every
// run at clock.Epoch: "Thu, 01 Jan 2026 00:00:08 GMT" means 8 s into the
// session. The mock sends each as the session's own start plus that
// offset, so that under `faultbench serve`, whose sessions start at the
// real time their first request comes, the date is 8 s after that start,
// not in the past. On the harness's virtual clock a session starts at
// clock.Epoch and the dates go out as written.

// rebase returns the rule's headers with their absolute times moved from
// clock.Epoch to start, rounded up to the second they are written in; the
// headers themselves when they hold none (or start is clock.Epoch).
func rebase(headers map[string]string, start time.Time) map[string]string {
	if len(headers) == 0 || start.Equal(clock.Epoch) {
		return headers
	}
	var out map[string]string
	for k, v := range headers {
		moved, ok := rebaseValue(strings.ToLower(k), strings.TrimSpace(v), start)
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[string]string, len(headers))
			for k2, v2 := range headers {
				out[k2] = v2
			}
		}
		out[k] = moved
	}
	if out == nil {
		return headers
	}
	return out
}

// rebaseValue moves one header's absolute time, when it holds one.
func rebaseValue(name, v string, start time.Time) (string, bool) {
	switch {
	case name == "retry-after":
		t, err := http.ParseTime(v)
		if err != nil {
			return "", false
		}
		return ceilSecond(start.Add(t.Sub(clock.Epoch))).UTC().Format(http.TimeFormat), true
	case strings.HasPrefix(name, "anthropic-ratelimit-") && strings.HasSuffix(name, "-reset"):
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return "", false
		}
		return ceilSecond(start.Add(t.Sub(clock.Epoch))).UTC().Format(time.RFC3339), true
	}
	return "", false
}

// ceilSecond rounds t up to a whole second, so that a client that waits
// until the date it was given is never early.
func ceilSecond(t time.Time) time.Time {
	if r := t.Truncate(time.Second); !r.Equal(t) {
		return r.Add(time.Second)
	}
	return t
}
