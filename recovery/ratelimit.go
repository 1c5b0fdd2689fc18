package recovery

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// rateLimitFamily is one rate-limit window a server reports on: the header
// of its reset time and the header of what remains of it.
type rateLimitFamily struct {
	reset, remaining string
	// duration: the reset is a time to wait (OpenAI's "6m0s"), not a point
	// in time (Anthropic's RFC 3339).
	duration bool
}

// rateLimitFamilies are the windows RateLimitReset reads, Anthropic's first.
var rateLimitFamilies = []rateLimitFamily{
	{reset: "anthropic-ratelimit-requests-reset", remaining: "anthropic-ratelimit-requests-remaining"},
	{reset: "anthropic-ratelimit-tokens-reset", remaining: "anthropic-ratelimit-tokens-remaining"},
	{reset: "anthropic-ratelimit-input-tokens-reset", remaining: "anthropic-ratelimit-input-tokens-remaining"},
	{reset: "anthropic-ratelimit-output-tokens-reset", remaining: "anthropic-ratelimit-output-tokens-remaining"},
	// Claude Code's subscription window, read in its persistent mode
	// (withRetry.ts; docs/strategies.md, claude-code).
	{reset: "anthropic-ratelimit-unified-reset", remaining: "anthropic-ratelimit-unified-remaining"},
	{reset: "x-ratelimit-reset-requests", remaining: "x-ratelimit-remaining-requests", duration: true},
	{reset: "x-ratelimit-reset-tokens", remaining: "x-ratelimit-remaining-tokens", duration: true},
}

// RateLimitReset returns how long until the rate-limit window that stopped
// a request opens again, from the headers a 429 carries: Anthropic's
// anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-reset
// (RFC 3339 times, taken relative to now; the unified window's reset may
// also be Unix seconds) and OpenAI's x-ratelimit-reset-{requests,tokens}
// (durations such as "6m0s", "84ms" or "1.5s").
//
// When some window says it has nothing remaining ("...-remaining: 0"),
// only those windows count; otherwise every window with a reset does. The
// wait is the latest of them, so that every window that may be the one
// holding the request has reopened. A reset in the past asks for 0. It
// reports false when no reset header can be read. Like RetryAfter, it sets
// no upper bound.
func RateLimitReset(h http.Header, now time.Time) (time.Duration, bool) {
	var all, exhausted time.Duration
	var anyAll, anyExhausted bool
	for _, f := range rateLimitFamilies {
		v := strings.TrimSpace(h.Get(f.reset))
		if v == "" {
			continue
		}
		d, ok := parseReset(v, f.duration, now)
		if !ok {
			continue
		}
		all, anyAll = max(all, d), true
		if strings.TrimSpace(h.Get(f.remaining)) == "0" {
			exhausted, anyExhausted = max(exhausted, d), true
		}
	}
	switch {
	case anyExhausted:
		return exhausted, true
	case anyAll:
		return all, true
	}
	return 0, false
}

// parseReset reads one reset header: a duration ("6m0s", or bare seconds)
// when duration is set, else a point in time (RFC 3339, or Unix seconds).
func parseReset(v string, duration bool, now time.Time) (time.Duration, bool) {
	if duration {
		if d, err := time.ParseDuration(v); err == nil && d >= 0 {
			return d, true
		}
		return scaledDuration(v, time.Second)
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return max(t.Sub(now), 0), true
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil && secs > 0 {
		return max(time.Unix(secs, 0).Sub(now), 0), true
	}
	return 0, false
}

// serverWait is the wait the server asks for, read as the strategy says:
// retry-after-ms and retry-after first, then the error body's RetryInfo,
// then the rate-limit reset headers.
func (s Strategy) serverWait(f Failure, now time.Time) (time.Duration, bool) {
	h := f.Header
	if h == nil && !(s.RetryAfter.RetryInfo && f.RetryDelay > 0) {
		return 0, false
	}
	if s.RetryAfter.HonorsHeader() && h != nil {
		read := func(h http.Header) (time.Duration, bool) { return RetryAfter(h, now) }
		if s.RetryAfter.Honor == RetryAfterSecondsOnly {
			read = RetryAfterSeconds
		}
		if d, ok := read(h); ok {
			return d, true
		}
	}
	if s.RetryAfter.RetryInfo && f.RetryDelay > 0 {
		return f.RetryDelay, true
	}
	if s.RetryAfter.RateLimitReset && h != nil {
		return RateLimitReset(h, now)
	}
	return 0, false
}
