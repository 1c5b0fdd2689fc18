package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// Base is what OpenAI's wires (Chat Completions, Responses) share: their
// errors' envelope and wording, their headers. A wire embeds it and adds
// its route, its decoder and its answers.
type Base struct{}

// Check lets every request through: OpenAI's wires refuse nothing on
// their headers alone.
func (Base) Check(http.Header) *wire.Error { return nil }

// BodyError words an error of reading the body: too large, or not JSON
// (empty, cut short).
func (Base) BodyError(err error) *wire.Error {
	var (
		tooBig *http.MaxBytesError
		syntax *json.SyntaxError
	)
	switch {
	case errors.As(err, &tooBig):
		return &wire.Error{
			Status: http.StatusRequestEntityTooLarge, Type: "invalid_request_error", Code: "request_too_large",
			Message: "Request exceeds the maximum allowed number of bytes.", Kind: wire.KindRequestTooLarge,
		}
	case err == io.EOF || err == io.ErrUnexpectedEOF || errors.As(err, &syntax):
		return Unparsable()
	}
	return wire.InvalidRequest("could not read request body: " + err.Error())
}

// NotFound is OpenAI's "Unknown request URL: POST /v1/... Please check
// the URL for typos, ..." with code unknown_url.
func (Base) NotFound(method, path, scenario string, known bool) *wire.Error {
	msg := "Unknown request URL: " + method + " " + path +
		". Please check the URL for typos, or see the docs at https://platform.openai.com/docs/api-reference/."
	if known {
		msg += fmt.Sprintf(" (faultbench serves no scenario %q.)", scenario)
	}
	return &wire.Error{Status: http.StatusNotFound, Type: "invalid_request_error", Code: "unknown_url", Message: msg, Kind: wire.KindNotFound}
}

// UnknownModel is a 404 invalid_request_error with code model_not_found,
// then the models the scenario serves.
func (Base) UnknownModel(name string, served []string) *wire.Error {
	list := " The scenario serves: " + strings.Join(served, ", ") + " (or alias a name: faultbench serve --model-alias)."
	return &wire.Error{
		Status: http.StatusNotFound, Type: "invalid_request_error", Code: "model_not_found", Kind: wire.KindNotFound,
		Message: "The model `" + name + "` does not exist or you do not have access to it." + list,
	}
}

// MaxOutput refuses an output budget above the model's max_output, under
// the name the request gave it.
func MaxOutput(m scenario.Model, q *wire.Request) *wire.Error {
	if m.MaxOutput <= 0 || q.MaxTokens <= m.MaxOutput {
		return nil
	}
	e := wire.InvalidRequest(fmt.Sprintf(
		"%s is too large: %d. This model supports at most %d completion tokens, whereas you provided %d.",
		q.MaxTokensKey, q.MaxTokens, m.MaxOutput, q.MaxTokens))
	e.Param = q.MaxTokensKey
	return e
}

// Overflow is a 400 context_length_exceeded.
func Overflow(msg string) *wire.Error {
	e := wire.ContextOverflow(msg)
	e.Param, e.Code = "messages", "context_length_exceeded"
	return e
}

// Refused is a 429 rate_limit_exceeded naming the limit, its use and the
// wait, as OpenAI words it: requests per min (RPM), or tokens per min
// (TPM) for input and output alike.
func (Base) Refused(r wire.Refusal) *wire.Error {
	typ, abbrev := "requests", "RPM"
	if r.Tokens {
		typ, abbrev = "tokens", "TPM"
	}
	e := &wire.Error{Status: http.StatusTooManyRequests, Type: typ, Code: "rate_limit_exceeded", Kind: wire.KindRateLimit}
	e.Message = fmt.Sprintf("Rate limit reached for %s in organization org-faultbench on %s per min (%s): "+
		"Limit %d, Used %d, Requested %d. Please try again in %s. Visit https://platform.openai.com/account/rate-limits to learn more.",
		r.Model, typ, abbrev, r.Limit, r.Used, r.Asked, WaitText(r.Wait.Round(time.Millisecond)))
	return e
}

// Headers sets x-request-id and the x-ratelimit-* headers: the model's
// buckets when it has limits, else the generous ones OpenAI's answers
// carry, which a rate-limit 429 shows shut until its wait is over.
func (Base) Headers(h http.Header, r *wire.Reply) {
	h["X-Request-Id"] = []string{r.RequestID}
	if r.Rate != nil {
		setRates(h, r.Rate)
	} else {
		rateLimitHeaders(h, r)
	}
}
