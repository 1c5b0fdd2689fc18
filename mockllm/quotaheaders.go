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

// setAnthropic sets the Anthropic headers of the declared buckets.
func (rs *rateState) setAnthropic(h http.Header) {
	set := func(name string, ls limitState) {
		if ls.limit == 0 {
			return
		}
		reset := rs.now.Add(ls.reset)
		if frac := reset.Sub(reset.Truncate(time.Second)); frac > 0 {
			reset = reset.Add(time.Second - frac)
		}
		h[http.CanonicalHeaderKey("anthropic-ratelimit-"+name+"-limit")] = []string{strconv.FormatInt(ls.limit, 10)}
		h[http.CanonicalHeaderKey("anthropic-ratelimit-"+name+"-remaining")] = []string{strconv.FormatInt(ls.remaining, 10)}
		h[http.CanonicalHeaderKey("anthropic-ratelimit-"+name+"-reset")] = []string{reset.UTC().Format(time.RFC3339)}
	}
	set("requests", rs.requests)
	set("input-tokens", rs.input)
	set("output-tokens", rs.output)
	set("tokens", rs.tokens())
}

// setOpenAI sets the OpenAI headers of the declared buckets.
func (rs *rateState) setOpenAI(h http.Header) {
	set := func(name string, ls limitState) {
		if ls.limit == 0 {
			return
		}
		reset := ls.reset
		if frac := reset % time.Millisecond; frac > 0 {
			reset += time.Millisecond - frac
		}
		h[http.CanonicalHeaderKey("x-ratelimit-limit-"+name)] = []string{strconv.FormatInt(ls.limit, 10)}
		h[http.CanonicalHeaderKey("x-ratelimit-remaining-"+name)] = []string{strconv.FormatInt(ls.remaining, 10)}
		h[http.CanonicalHeaderKey("x-ratelimit-reset-"+name)] = []string{reset.String()}
	}
	set("requests", rs.requests)
	set("tokens", rs.tokens())
}
