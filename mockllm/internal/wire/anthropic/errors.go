package anthropic

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// The errors the mock answers with on its own, worded as the Messages API
// words them.

// The anthropic-version values the real API accepts: the two it
// publishes, and the one anthropic-sdk-go v2.15 sends. A request without
// the header is let through: the mock is also for curl.
var versions = []string{"2023-06-01", "2023-01-01", "2026-10-21"}

// Check refuses an anthropic-version the real API does not know:
// `anthropic-version: "2023-10-01" is not a valid version`.
func (Wire) Check(h http.Header) *wire.Error {
	v, ok := h["Anthropic-Version"]
	if !ok {
		return nil
	}
	got := strings.Join(v, ", ")
	for _, known := range versions {
		if got == known {
			return nil
		}
	}
	return wire.InvalidRequest(fmt.Sprintf("anthropic-version: %q is not a valid version", got))
}

// PerTurnControl is the beta under which the Messages API takes role
// "system" messages inside messages, as Claude Code sends them.
const PerTurnControl = "per-turn-control-2026-07-01"

// ReadHeaders lets q's messages have role "system" when the
// anthropic-beta header names PerTurnControl.
func (Wire) ReadHeaders(h http.Header, q *wire.Request) {
	q.SystemRoles = wire.HasBeta(h, PerTurnControl)
}

// tooLarge is the answer to a body over 32 MB.
func tooLarge() *wire.Error {
	return &wire.Error{
		Status: http.StatusRequestEntityTooLarge, Type: "request_too_large",
		Message: "Request exceeds the maximum allowed number of bytes.", Kind: wire.KindRequestTooLarge,
	}
}

// NotFound is a not_found_error, naming the scenario it does not serve.
func (Wire) NotFound(_, _, scenario string, known bool) *wire.Error {
	msg := "Not found"
	if known {
		msg = fmt.Sprintf("Not found: no scenario %q", scenario)
	}
	return &wire.Error{Status: http.StatusNotFound, Type: "not_found_error", Message: msg, Kind: wire.KindNotFound}
}

// UnknownModel is a 404 not_found_error, "model: NAME.", then the models
// the scenario serves.
func (Wire) UnknownModel(name string, served []string) *wire.Error {
	return &wire.Error{Status: http.StatusNotFound, Type: "not_found_error", Message: "model: " + name + "." + servedList(served), Kind: wire.KindNotFound}
}

// servedList tells a user what to send instead of an unknown model.
func servedList(served []string) string {
	return " The scenario serves: " + strings.Join(served, ", ") + " (or alias a name: faultbench serve --model-alias)."
}

// Limits words a model's limits as the Messages API does: max_tokens
// above max_output; the input alone over the window ("prompt is too
// long"); input plus max_tokens over it.
func (Wire) Limits(name string, m scenario.Model, q *wire.Request) *wire.Error {
	input, maxTokens := q.InputTokens(), q.MaxTokens
	switch {
	case m.MaxOutput > 0 && maxTokens > m.MaxOutput:
		return wire.InvalidRequest(fmt.Sprintf(
			"max_tokens: %d > %d, which is the maximum allowed number of output tokens for %s",
			maxTokens, m.MaxOutput, name))
	case m.ContextWindow <= 0:
		return nil
	case input > m.ContextWindow:
		return wire.ContextOverflow(fmt.Sprintf("prompt is too long: %d tokens > %d maximum", input, m.ContextWindow))
	case input+maxTokens > m.ContextWindow:
		return wire.ContextOverflow(fmt.Sprintf(
			"input length and `max_tokens` exceed context limit: %d + %d > %d, decrease input length or `max_tokens` and try again",
			input, maxTokens, m.ContextWindow))
	}
	return nil
}

// Scripted is a rule's error: its type and message, or the real API's for
// the status.
func (Wire) Scripted(s wire.Scripted) *wire.Error {
	dt, dm := defaultError(s.Status)
	typ, msg := s.Type, s.Msg
	if typ == "" {
		typ = dt
	}
	if msg == "" {
		msg = dm
	}
	return &wire.Error{Status: s.Status, Type: typ, Message: msg, Kind: wire.ErrorKind(s.Status, typ, msg)}
}

// Refused is the real API's 429 rate_limit_error for a limit a request
// would exceed.
func (Wire) Refused(r wire.Refusal) *wire.Error {
	return &wire.Error{
		Status: http.StatusTooManyRequests, Type: "rate_limit_error", Kind: wire.KindRateLimit,
		Message: fmt.Sprintf("This request would exceed your organization's rate limit of %s %s per minute (model: %s). "+
			"For details, refer to: https://docs.claude.com/en/api/rate-limits. "+
			"You can see the response headers for current usage. Please try again later.", grouped(r.Limit), r.What, r.Model),
	}
}

// grouped writes n with thousands separators, as the real API's messages do.
func grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// The rate-limit headers: anthropic-ratelimit-{requests,input-tokens,
// output-tokens,tokens}-{limit,remaining,reset}, the reset an RFC 3339
// time at which the bucket is full again, rounded up to the second;
// "tokens" is the more restrictive of the two token buckets.
var (
	rateRequests = rateHeaders("requests")
	rateInput    = rateHeaders("input-tokens")
	rateOutput   = rateHeaders("output-tokens")
	rateTokens   = rateHeaders("tokens")
)

// rateHeaders are one bucket's three header names, canonical, worked out
// once rather than on every answer.
func rateHeaders(name string) [3]string {
	p := "anthropic-ratelimit-" + name
	return [3]string{http.CanonicalHeaderKey(p + "-limit"), http.CanonicalHeaderKey(p + "-remaining"), http.CanonicalHeaderKey(p + "-reset")}
}

// setRates sets the headers of the declared buckets.
func setRates(h http.Header, rs *wire.Rates) {
	set := func(n [3]string, ls wire.Limit) {
		if ls.Limit == 0 {
			return
		}
		reset := rs.Now.Add(ls.Reset)
		if frac := reset.Sub(reset.Truncate(time.Second)); frac > 0 {
			reset = reset.Add(time.Second - frac)
		}
		h[n[0]] = []string{strconv.FormatInt(ls.Limit, 10)}
		h[n[1]] = []string{strconv.FormatInt(ls.Remaining, 10)}
		h[n[2]] = []string{reset.UTC().Format(time.RFC3339)}
	}
	set(rateRequests, rs.Requests)
	set(rateInput, rs.Input)
	set(rateOutput, rs.Output)
	set(rateTokens, rs.Tokens())
}

// defaultError is the envelope type and message the real API sends with a
// status.
func defaultError(status int) (typ, msg string) {
	switch status {
	case 400:
		return "invalid_request_error", "Invalid request"
	case 401:
		return "authentication_error", "invalid x-api-key"
	case 402:
		return "billing_error", "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."
	case 403:
		return "permission_error", "Your API key does not have permission to use the specified resource."
	case 404:
		return "not_found_error", "Not found"
	case 408:
		return "timeout_error", "Request timed out"
	case 409:
		return "conflict_error", "Conflict"
	case 413:
		return "request_too_large", "Request exceeds the maximum allowed number of bytes."
	case 429:
		return "rate_limit_error", "Number of requests has exceeded your rate limit. Please try again later."
	case 500:
		return "api_error", "Internal server error"
	case 529:
		return "overloaded_error", "Overloaded"
	}
	msg = http.StatusText(status)
	if status >= 500 {
		if msg == "" {
			msg = "Internal server error"
		}
		return "api_error", msg
	}
	if msg == "" {
		msg = "Invalid request"
	}
	return "invalid_request_error", msg
}
