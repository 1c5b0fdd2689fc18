package recovery

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryAfter returns the wait a response asks for, as the official SDKs
// read it: retry-after-ms (milliseconds, fractions allowed) first, then
// retry-after as seconds (fractions allowed) or as an HTTP date, taken
// relative to now; a date in the past asks for 0. A header that is absent,
// negative or unreadable is skipped. It reports false when neither header
// gives a wait. The value is returned as given, with no upper bound: capping
// it is the strategy's business (Strategy.RetryAfterCap).
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if d, ok := scaledDuration(v, time.Millisecond); ok {
			return d, true
		}
	}
	v := strings.TrimSpace(h.Get("retry-after"))
	if v == "" {
		return 0, false
	}
	if d, ok := scaledDuration(v, time.Second); ok {
		return d, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// scaledDuration parses a non-negative finite number of units; a value too
// large for a Duration is clamped to the largest one.
func scaledDuration(v string, unit time.Duration) (time.Duration, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, false
	}
	d := f * float64(unit)
	if d >= math.MaxInt64 {
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(d), true
}

// RetryAfterSeconds reads retry-after as Claude Code's getRetryDelay does,
// parseInt(value, 10) seconds: the leading whole number of the value ("1.5"
// is 1 s, "12abc" 12 s); a value that does not start with one (an HTTP
// date) is not read, and retry-after-ms never is. A count too large for a
// Duration is clamped to the largest one; a negative one waits nothing.
func RetryAfterSeconds(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("retry-after"))
	neg := false
	if v != "" && (v[0] == '-' || v[0] == '+') {
		neg, v = v[0] == '-', v[1:]
	}
	n := 0
	for n < len(v) && v[n] >= '0' && v[n] <= '9' {
		n++
	}
	if n == 0 {
		return 0, false
	}
	if neg {
		return 0, true
	}
	s, err := strconv.ParseInt(v[:n], 10, 64)
	if err != nil || s > math.MaxInt64/int64(time.Second) {
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(s) * time.Second, true
}
