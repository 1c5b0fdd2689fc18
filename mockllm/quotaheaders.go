package mockllm

import (
	"net/http"
	"strconv"
	"time"
)

// The rate-limit headers every answer of a model with limits carries,
// derived from its buckets after the request paid (docs/serve.md).
//
// Anthropic: anthropic-ratelimit-{requests,input-tokens,output-tokens,
// tokens}-{limit,remaining,reset}, the reset an RFC 3339 time at which
// the bucket is full again, rounded up to the second; "tokens" is the
// more restrictive of the two token buckets.
//
// OpenAI: x-ratelimit-{limit,remaining,reset}-{requests,tokens}, the reset
// a duration until the bucket is full again ("6m0s", "1.5s", "6ms"),
// rounded up to the millisecond; "tokens" as above.

// rateHeaders are one bucket's three header names, canonical, worked out
// once rather than on every answer.
type rateHeaders struct{ limit, remaining, reset string }

var (
	anthropicRequests = anthropicHeaders("requests")
	anthropicInput    = anthropicHeaders("input-tokens")
	anthropicOutput   = anthropicHeaders("output-tokens")
	anthropicTokens   = anthropicHeaders("tokens")
	openaiRequests    = openaiHeaders("requests")
	openaiTokens      = openaiHeaders("tokens")
)

func anthropicHeaders(name string) rateHeaders {
	p := "anthropic-ratelimit-" + name
	return rateHeaders{http.CanonicalHeaderKey(p + "-limit"), http.CanonicalHeaderKey(p + "-remaining"), http.CanonicalHeaderKey(p + "-reset")}
}

func openaiHeaders(name string) rateHeaders {
	return rateHeaders{http.CanonicalHeaderKey("x-ratelimit-limit-" + name), http.CanonicalHeaderKey("x-ratelimit-remaining-" + name), http.CanonicalHeaderKey("x-ratelimit-reset-" + name)}
}

// setAnthropic sets the Anthropic headers of the declared buckets.
func (rs *rateState) setAnthropic(h http.Header) {
	set := func(n rateHeaders, ls limitState) {
		if ls.limit == 0 {
			return
		}
		reset := rs.now.Add(ls.reset)
		if frac := reset.Sub(reset.Truncate(time.Second)); frac > 0 {
			reset = reset.Add(time.Second - frac)
		}
		h[n.limit] = []string{strconv.FormatInt(ls.limit, 10)}
		h[n.remaining] = []string{strconv.FormatInt(ls.remaining, 10)}
		h[n.reset] = []string{reset.UTC().Format(time.RFC3339)}
	}
	set(anthropicRequests, rs.requests)
	set(anthropicInput, rs.input)
	set(anthropicOutput, rs.output)
	set(anthropicTokens, rs.tokens())
}

// setOpenAI sets the OpenAI headers of the declared buckets.
func (rs *rateState) setOpenAI(h http.Header) {
	set := func(n rateHeaders, ls limitState) {
		if ls.limit == 0 {
			return
		}
		reset := ls.reset
		if frac := reset % time.Millisecond; frac > 0 {
			reset += time.Millisecond - frac
		}
		h[n.limit] = []string{strconv.FormatInt(ls.limit, 10)}
		h[n.remaining] = []string{strconv.FormatInt(ls.remaining, 10)}
		h[n.reset] = []string{reset.String()}
	}
	set(openaiRequests, rs.requests)
	set(openaiTokens, rs.tokens())
}
