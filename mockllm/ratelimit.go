package mockllm

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// One 429, one story: the wait a rate-limit answer states in its message
// (OpenAI's "Please try again in 20s"), in retry-after and in the
// rate-limit reset headers is one wait, read from the rule's headers.

// defaultRateLimitWait is the wait a 429 asks for when its rule's headers
// and window say nothing: 1 s.
const defaultRateLimitWait = time.Second

// ruleWait is the wait a rule's headers ask for: retry-after-ms, else
// retry-after (seconds, or an HTTP date read against now), else the reset
// of the rate-limit window that is shut (remaining "0"), or the latest
// reset when none says so: OpenAI's x-ratelimit-reset-{requests,tokens}
// as durations ("20s", "6m0s"), Anthropic's
// anthropic-ratelimit-*-reset as RFC 3339 times. ok is false when they
// say nothing.
func ruleWait(headers map[string]string, now time.Time) (time.Duration, bool) {
	if d, ok := retryAfterOf(headers, now); ok {
		return d, true
	}
	var (
		shut, latest       time.Duration
		hasShut, hasLatest bool
	)
	for k, v := range headers {
		name := strings.ToLower(k)
		var (
			d      time.Duration
			window string
		)
		switch {
		case strings.HasPrefix(name, "x-ratelimit-reset-"):
			p, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil || p < 0 {
				continue
			}
			d, window = p, "x-ratelimit-remaining-"+strings.TrimPrefix(name, "x-ratelimit-reset-")
		case strings.HasPrefix(name, "anthropic-ratelimit-") && strings.HasSuffix(name, "-reset"):
			t, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
			if err != nil {
				continue
			}
			d, window = max(0, t.Sub(now)), strings.TrimSuffix(name, "-reset")+"-remaining"
		default:
			continue
		}
		if !hasLatest || d > latest {
			latest, hasLatest = d, true
		}
		if headerValue(headers, window) == "0" && (!hasShut || d > shut) {
			shut, hasShut = d, true
		}
	}
	if hasShut {
		return shut, true
	}
	return latest, hasLatest
}

// headerValue is a rule's header by name, in any case ("" when absent).
func headerValue(headers map[string]string, name string) string {
	for k, v := range headers {
		if strings.EqualFold(k, name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// hasHeader reports whether a rule's headers name the header, with a value
// or with "" (which removes it).
func hasHeader(headers map[string]string, name string) bool {
	for k := range headers {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// retryAfterSeconds writes a wait as retry-after does: whole seconds,
// rounded up, at least 1.
func retryAfterSeconds(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}

// setRuleHeaders sets a rule's headers over the mock's own: a value
// replaces the mock's, "" removes the header.
func setRuleHeaders(h http.Header, headers map[string]string) {
	for k, v := range headers {
		if v == "" {
			h.Del(k)
		} else {
			h.Set(k, v)
		}
	}
}
