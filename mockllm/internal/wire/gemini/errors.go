package gemini

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// The errors the mock answers with on its own, as the Gemini API words
// them: {"error": {"code", "message", "status", "details"}}.

// statusName is the Google status of an HTTP status.
func statusName(code int) string {
	switch code {
	case 400, 413, 422:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 408, 504:
		return "DEADLINE_EXCEEDED"
	case 409:
		return "ABORTED"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 499:
		return "CANCELLED"
	case 501:
		return "UNIMPLEMENTED"
	case 503, 529:
		return "UNAVAILABLE"
	}
	if code >= 500 {
		return "INTERNAL"
	}
	return "FAILED_PRECONDITION"
}

// defaultMessage is the message the real API sends with a status.
func defaultMessage(code int) string {
	switch code {
	case 400:
		return "Request contains an invalid argument."
	case 401:
		return "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."
	case 403:
		return "The caller does not have permission"
	case 404:
		return "Requested entity was not found."
	case 408, 504:
		return "Deadline expired before operation could complete."
	case 409:
		return "The operation was aborted."
	case 500:
		return "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
	case 503, 529:
		return "The model is overloaded. Please try again later."
	}
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "Request contains an invalid argument."
}

// The quotas a 429 names (scenario's respond.quota), as Google names them.
const (
	perMinuteQuota = "GenerateRequestsPerMinutePerProjectPerModel"
	perDayQuota    = "GenerateRequestsPerDayPerProjectPerModel"
	requestsMetric = "generativelanguage.googleapis.com/generate_content_requests"
	inputMetric    = "generativelanguage.googleapis.com/generate_content_input_token_count"
	outputMetric   = "generativelanguage.googleapis.com/generate_content_output_token_count"
	quotaHelpURL   = "https://ai.google.dev/gemini-api/docs/rate-limits"
)

// quotaError is a 429 RESOURCE_EXHAUSTED with the QuotaFailure, Help and
// RetryInfo details the real API sends, and the message that repeats the
// wait ("Please retry in 14.654s.").
func quotaError(model, metric, quotaID string, limit int64, wait time.Duration, kind string) *wire.Error {
	msg := "You exceeded your current quota, please check your plan and billing details. " +
		"For more information on this error, head to: " + quotaHelpURL + ".\n" +
		"* Quota exceeded for metric: " + metric + ", limit: " + strconv.FormatInt(limit, 10) + ", model: " + model + "\n" +
		"Please retry in " + seconds(wait, 3) + "s."
	var d []byte
	d = append(d, `[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":`...)
	d = jsonscan.AppendString(d, metric)
	d = append(d, `,"quotaId":`...)
	d = jsonscan.AppendString(d, quotaID)
	d = append(d, `,"quotaDimensions":{"location":"global","model":`...)
	d = jsonscan.AppendString(d, model)
	d = append(d, `},"quotaValue":"`...)
	d = strconv.AppendInt(d, limit, 10)
	d = append(d, `"}]},{"@type":"type.googleapis.com/google.rpc.Help","links":[{"description":"Learn more about Gemini API quotas","url":"`+quotaHelpURL+`"}]},`...)
	d = append(d, `{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"`...)
	d = append(d, seconds(wait, 0)...)
	d = append(d, `s"}]`...)
	return &wire.Error{Status: http.StatusTooManyRequests, Type: "RESOURCE_EXHAUSTED", Message: msg, Kind: kind, Details: d, Wait: retryDelay(wait)}
}

// retryDelay is the wait RetryInfo states: d in whole seconds, rounded
// up.
func retryDelay(d time.Duration) time.Duration {
	return time.Duration(math.Ceil(d.Seconds())) * time.Second
}

// seconds writes d in seconds with at most prec decimals, rounded up (so
// that a client that waits it is never early); RetryInfo's retryDelay is
// whole seconds.
func seconds(d time.Duration, prec int) string {
	scale := math.Pow10(prec)
	s := math.Ceil(d.Seconds()*scale) / scale
	return strconv.FormatFloat(s, 'f', -1, 64)
}

// scriptedLimit is the limit a scripted 429's message and QuotaFailure
// name when the model declares no rpm (and for a per-day quota, which no
// model declares): the free tier's 10 requests (a rule names no limit).
const scriptedLimit = 10

// Scripted is a rule's error: its message, or the real API's for the
// status, with the status's Google name; a 429 is a quota error whose
// details the rule scripts (respond.quota, respond.retry_delay), its
// message the rule's when it has one.
func (Wire) Scripted(s wire.Scripted) *wire.Error {
	if s.Status == http.StatusTooManyRequests {
		// A per-minute quota asks for the wait the server worked out (what
		// the rule's window leaves, else 1 s) and states the model's rpm,
		// the bucket its own refusals name; a per-day one asks for a day.
		id, kind, wait, limit := perMinuteQuota, wire.KindRateLimit, s.Wait, int64(scriptedLimit)
		if s.Rate != nil && s.Rate.Requests.Limit > 0 {
			limit = s.Rate.Requests.Limit
		}
		if s.Quota == scenario.QuotaPerDay {
			id, kind, wait, limit = perDayQuota, wire.KindQuotaExhausted, 24*time.Hour, scriptedLimit
		}
		if s.RetryDelay > 0 {
			wait = s.RetryDelay
		}
		e := quotaError(s.Model, requestsMetric, id, limit, wait, kind)
		if s.Msg != "" {
			e.Message = s.Msg
		}
		return e
	}
	status, typ, msg := s.Status, s.Type, s.Msg
	if status == 529 || typ == "overloaded_error" {
		// An overload (a rule's 529, the mock's capacity) is Gemini's 503.
		status, typ = http.StatusServiceUnavailable, "UNAVAILABLE"
	}
	if !isStatusName(typ) {
		// The scenario's types are Anthropic's words; Gemini has statuses.
		typ = statusName(status)
	}
	if msg == "" {
		msg = defaultMessage(status)
	}
	return &wire.Error{Status: status, Type: typ, Message: msg, Kind: errorKind(status, typ, msg)}
}

// isStatusName reports whether s is one of google.rpc.Code's names, as a
// rule may write its type on this wire.
func isStatusName(s string) bool {
	switch s {
	case "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
		"PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
		"UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED":
		return true
	}
	return false
}

// errorKind labels a Gemini error as the classifier reads it.
func errorKind(status int, typ, msg string) string {
	switch {
	case typ == "RESOURCE_EXHAUSTED" || status == 429:
		return wire.KindRateLimit
	case typ == "UNAVAILABLE":
		return wire.KindOverloaded
	case status == 400 && wire.Mentions(msg, "input token count"):
		return wire.KindContextOverflow
	}
	return wire.ErrorKind(status, "", msg)
}

// Refused is the 429 of a rate-limit bucket that cannot pay: the
// per-minute quota of its metric, with the wait the refill takes.
func (Wire) Refused(r wire.Refusal) *wire.Error {
	metric, id := requestsMetric, perMinuteQuota
	switch r.What {
	case "input tokens":
		metric, id = inputMetric, "GenerateContentInputTokensPerModelPerMinute"
	case "output tokens":
		metric, id = outputMetric, "GenerateContentOutputTokensPerModelPerMinute"
	}
	return quotaError(r.Model, metric, id, r.Limit, r.Wait, wire.KindRateLimit)
}

// NotFound is a 404 NOT_FOUND naming the path, or the scenario it does
// not serve.
func (Wire) NotFound(method, path, scenario string, known bool) *wire.Error {
	msg := fmt.Sprintf("Method not found: %s %s.", method, path)
	if known {
		msg = fmt.Sprintf("Not found: no scenario %q.", scenario)
	}
	return &wire.Error{Status: http.StatusNotFound, Type: "NOT_FOUND", Message: msg, Kind: wire.KindNotFound}
}

// UnknownModel is the real API's 404 for a model it does not serve, then
// the models the scenario serves.
func (Wire) UnknownModel(name string, served []string) *wire.Error {
	return &wire.Error{
		Status: http.StatusNotFound, Type: "NOT_FOUND", Kind: wire.KindNotFound,
		Message: "models/" + name + " is not found for API version v1beta, or is not supported for generateContent. " +
			"Call ListModels to see the list of available models and their supported methods. The scenario serves: " + joined(served) + ".",
	}
}

// Limits words a model's limits as the Gemini API does: maxOutputTokens
// outside the model's range, the input over the window. The output
// budget is not added to the input: Gemini counts them apart.
func (Wire) Limits(_ string, m scenario.Model, q *wire.Request) *wire.Error {
	input := q.InputTokens()
	switch {
	case m.MaxOutput > 0 && q.MaxTokens > m.MaxOutput:
		return invalid(fmt.Sprintf("Unable to submit request because it has a maxOutputTokens value of %d but the supported range is from 1 (inclusive) to %d (exclusive). Update the value and try again.",
			q.MaxTokens, m.MaxOutput+1), wire.KindInvalidRequest)
	case m.ContextWindow > 0 && input > m.ContextWindow:
		return invalid(fmt.Sprintf("The input token count (%d) exceeds the maximum number of tokens allowed (%d).", input, m.ContextWindow), wire.KindContextOverflow)
	}
	return nil
}

// invalid is a 400 INVALID_ARGUMENT.
func invalid(msg, kind string) *wire.Error {
	return &wire.Error{Status: http.StatusBadRequest, Type: "INVALID_ARGUMENT", Message: msg, Kind: kind}
}

func joined(names []string) string { return strings.Join(names, ", ") }

// appendError appends the error envelope.
func appendError(b []byte, e *wire.Error) []byte {
	b = append(b, `{"error":{"code":`...)
	b = strconv.AppendInt(b, int64(e.Status), 10)
	b = append(b, `,"message":`...)
	b = jsonscan.AppendString(b, e.Message)
	b = append(b, `,"status":`...)
	typ := e.Type
	if typ == "" {
		typ = statusName(e.Status)
	}
	b = jsonscan.AppendString(b, typ)
	if len(e.Details) > 0 {
		b = append(b, `,"details":`...)
		b = append(b, e.Details...)
	}
	return append(b, "}}"...)
}

// BodyError words an error of reading the body: over the 32 MB limit a
// 413 ("Request payload size exceeds the limit"), an empty body the 400
// of no contents, anything else a body that is not JSON.
func (Wire) BodyError(err error) *wire.Error {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return &wire.Error{Status: http.StatusRequestEntityTooLarge, Type: "INVALID_ARGUMENT", Kind: wire.KindRequestTooLarge,
			Message: fmt.Sprintf("Request payload size exceeds the limit: %d bytes.", tooBig.Limit)}
	case errors.Is(err, io.EOF):
		return invalid("* GenerateContentRequest.contents: contents is not specified", wire.KindInvalidRequest)
	}
	return invalid("Invalid JSON payload received. Unexpected end of string.", wire.KindInvalidRequest)
}
