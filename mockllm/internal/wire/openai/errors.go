package openai

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// Unparsable is OpenAI's answer to a body that is not JSON.
func Unparsable() *wire.Error {
	return wire.InvalidRequest("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your " +
		"HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have " +
		"trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)")
}

// Param is a 400 about one parameter.
func Param(param, code, msg string) *wire.Error {
	e := wire.InvalidRequest(msg)
	e.Param, e.Code = param, code
	return e
}

// Missing is a required parameter left out.
func Missing(param string) *wire.Error {
	return Param(param, "missing_required_parameter", "Missing required parameter: '"+param+"'.")
}

// TypeError is a parameter of the wrong type; s stands at its value.
func TypeError(s *wire.Scanner, param, want string) *wire.Error {
	return Param(param, "invalid_type",
		fmt.Sprintf("Invalid type for '%s': expected %s, but got %s instead.", param, want, KindOf(s)))
}

// KindOf names the kind of the value s stands at, as OpenAI's messages
// do, without consuming it.
func KindOf(s *wire.Scanner) string {
	switch c := s.Peek(); {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	at := s.Pos()
	isInt := isInteger(s.Literal())
	s.Seek(at)
	if isInt {
		return "an integer"
	}
	return "a decimal number"
}

// isInteger reports whether a JSON number is an integer, whatever its size:
// an optional minus and digits only.
func isInteger(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("-"))
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// clipLiteral is at most 32 bytes of a number the client sent, to quote.
func clipLiteral(b []byte) string {
	if len(b) <= 32 {
		return string(b)
	}
	return string(b[:32]) + "…"
}

// Scripted is the error a rule answers with on OpenAI's wires: the
// rule's type and message, or OpenAI's for the status. The code is
// OpenAI's for what the error is: context_length_exceeded,
// insufficient_quota (a 402, or a 429 about quota, billing or credit),
// rate_limit_exceeded, invalid_api_key, model_not_found.
func (Base) Scripted(s wire.Scripted) *wire.Error {
	status, typ, msg, model := s.Status, s.Type, s.Msg, s.Model
	e := &wire.Error{Status: status, Type: typ, Message: msg}
	quota := status == 402 || (status == 429 && wire.Mentions(typ+" "+msg, "quota", "billing", "credit", "usage limit"))
	switch {
	case status == 529 || typ == "overloaded_error":
		// OpenAI says overloaded with a 503 and a server_error.
		e.Status = http.StatusServiceUnavailable
		if e.Type == "" || e.Type == "overloaded_error" {
			e.Type = "server_error"
		}
		defaults(e, "server_error", "That model is currently overloaded with other requests. You can retry your request, "+
			"or contact us through our help center at help.openai.com if the error persists. (Please include the request ID "+
			s.RequestID+" in your message.)")
		e.Kind = wire.KindOverloaded
		return e
	case quota:
		e.Code = "insufficient_quota"
		defaults(e, "insufficient_quota", "You exceeded your current quota, please check your plan and billing details. "+
			"For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.")
	case status == 429:
		// One truth: the message states the requests bucket the headers
		// show — the model's (limit, and limit less remaining), or without
		// one the limit the headers claim, all used (rateLimitHeaders).
		e.Code, e.Bucket = "rate_limit_exceeded", wire.BucketRequests
		limit, used := int64(openaiRequestLimit), int64(openaiRequestLimit)
		if s.Rate != nil && s.Rate.Requests.Limit > 0 {
			limit, used = s.Rate.Requests.Limit, s.Rate.Requests.Limit-s.Rate.Requests.Remaining
		}
		defaults(e, "requests", fmt.Sprintf("Rate limit reached for %s in organization org-faultbench on requests per min (RPM): "+
			"Limit %d, Used %d, Requested 1. Please try again in %s. Visit https://platform.openai.com/account/rate-limits to learn more.",
			model, limit, used, WaitText(s.Wait)))
	case (status == 400 || status == 413 || status == 422) && wire.IsContextMessage(msg):
		e.Code, e.Param = "context_length_exceeded", "messages"
		defaults(e, "invalid_request_error", "")
	case status == 401:
		e.Code = "invalid_api_key"
		defaults(e, "invalid_request_error", "Incorrect API key provided: fb-***. You can find your API key at https://platform.openai.com/account/api-keys.")
	case status == 403:
		e.Code = "unsupported_country_region_territory"
		defaults(e, "request_forbidden", "Country, region, or territory not supported")
	case status == 404:
		e.Code = "model_not_found"
		defaults(e, "invalid_request_error", "The model `"+model+"` does not exist or you do not have access to it.")
	case status == 500:
		defaults(e, "server_error", "The server had an error while processing your request. Sorry about that!")
	case status == 503:
		defaults(e, "server_error", "The server is overloaded or not ready yet.")
	case status >= 500:
		defaults(e, "server_error", http.StatusText(status))
	default:
		defaults(e, "invalid_request_error", http.StatusText(status))
	}
	if e.Message == "" {
		e.Message = "Invalid request"
	}
	e.Kind = wire.ErrorKind(status, e.Type, e.Message)
	return e
}

// defaults fills the type and message a rule left out.
func defaults(e *wire.Error, typ, msg string) {
	if e.Type == "" {
		e.Type = typ
	}
	if e.Message == "" {
		e.Message = msg
	}
}

// WaitText writes a wait as OpenAI's messages and reset headers do:
// "84ms", "2s", "6m0s"; nothing asked is 1s.
func WaitText(d time.Duration) string {
	if d <= 0 {
		d = time.Second
	}
	return d.String()
}

// The rate limits the mock's OpenAI headers claim.
const (
	openaiRequestLimit = 10000
	openaiTokenLimit   = 2000000
)

// rateLimitHeaders sets x-ratelimit-{limit,remaining,reset}-{requests,
// tokens} as OpenAI sends them on every answer; a 429 rate limit shows
// nothing remaining and resets after the wait it asks for, the wait its
// message and retry-after state.
func rateLimitHeaders(h http.Header, r *wire.Reply) {
	remainingRequests, remainingTokens := openaiRequestLimit-1, max(0, openaiTokenLimit-r.Input)
	resetRequests, resetTokens := "6ms", "0s"
	if r.Err != nil && r.Err.Kind == wire.KindRateLimit {
		remainingRequests, remainingTokens = 0, 0
		resetRequests = WaitText(r.Wait)
		resetTokens = resetRequests
	}
	h["X-Ratelimit-Limit-Requests"] = []string{strconv.Itoa(openaiRequestLimit)}
	h["X-Ratelimit-Limit-Tokens"] = []string{strconv.Itoa(openaiTokenLimit)}
	h["X-Ratelimit-Remaining-Requests"] = []string{strconv.Itoa(remainingRequests)}
	h["X-Ratelimit-Remaining-Tokens"] = []string{strconv.Itoa(remainingTokens)}
	h["X-Ratelimit-Reset-Requests"] = []string{resetRequests}
	h["X-Ratelimit-Reset-Tokens"] = []string{resetTokens}
}

// AppendError appends {"error":{"message","type","param","code"}}.
func AppendError(b []byte, e *wire.Error) []byte {
	b = append(b, `{"error":{"message":`...)
	b = jsonscan.AppendString(b, e.Message)
	b = append(b, `,"type":`...)
	b = jsonscan.AppendString(b, e.Type)
	b = append(b, `,"param":`...)
	b = appendNullable(b, e.Param)
	b = append(b, `,"code":`...)
	b = appendNullable(b, e.Code)
	return append(b, `}}`...)
}

func appendNullable(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return jsonscan.AppendString(b, s)
}

// The rate-limit headers: x-ratelimit-{limit,remaining,reset}-{requests,
// tokens}, the reset a duration until the bucket is full again ("6m0s",
// "1.5s", "6ms"), rounded up to the millisecond; "tokens" is the more
// restrictive of the two token buckets.
var (
	rateRequests = rateHeaders("requests")
	rateTokens   = rateHeaders("tokens")
)

// rateHeaders are one bucket's three header names, canonical.
func rateHeaders(name string) [3]string {
	return [3]string{http.CanonicalHeaderKey("x-ratelimit-limit-" + name), http.CanonicalHeaderKey("x-ratelimit-remaining-" + name), http.CanonicalHeaderKey("x-ratelimit-reset-" + name)}
}

// setRates sets the headers of the declared buckets.
func setRates(h http.Header, rs *wire.Rates) {
	set := func(n [3]string, ls wire.Limit) {
		if ls.Limit == 0 {
			return
		}
		reset := ls.Reset
		if frac := reset % time.Millisecond; frac > 0 {
			reset += time.Millisecond - frac
		}
		h[n[0]] = []string{strconv.FormatInt(ls.Limit, 10)}
		h[n[1]] = []string{strconv.FormatInt(ls.Remaining, 10)}
		h[n[2]] = []string{reset.String()}
	}
	set(rateRequests, rs.Requests)
	set(rateTokens, rs.Tokens())
}
