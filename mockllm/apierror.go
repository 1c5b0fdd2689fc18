package mockllm

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// apiError is an error answer: the status, the envelope's type and
// message, and the kind the journal records. param and code are OpenAI's
// (empty is null); the Anthropic envelope has neither.
type apiError struct {
	status int
	typ    string
	msg    string
	kind   string
	param  string
	code   string
}

func invalidRequest(msg string) *apiError {
	return &apiError{status: http.StatusBadRequest, typ: "invalid_request_error", msg: msg, kind: kindInvalidRequest}
}

// errTooLarge is the answer to a body over 32 MB.
func errTooLarge(wr wire) *apiError {
	e := &apiError{
		status: http.StatusRequestEntityTooLarge, typ: "request_too_large",
		msg: "Request exceeds the maximum allowed number of bytes.", kind: kindRequestTooLarge,
	}
	if wr.openai() {
		e.typ, e.code = "invalid_request_error", "request_too_large"
	}
	return e
}

// notFound is the answer to a path or scenario the mock does not serve.
func notFound(msg string, wr wire) *apiError {
	e := &apiError{status: http.StatusNotFound, typ: "not_found_error", msg: msg, kind: kindNotFound}
	if wr.openai() {
		e.typ, e.code = "invalid_request_error", "unknown_url"
	}
	return e
}

// routeNotFound answers a path the mock does not serve, or (known) an API
// path of a scenario it does not serve, in the shape of the wire the path
// is of: OpenAI's "Unknown request URL: POST /v1/... Please check the URL
// for typos, ..." with code unknown_url, or Anthropic's not_found_error.
func routeNotFound(method, path, name string, known bool, wr wire) *apiError {
	if wr.openai() {
		msg := "Unknown request URL: " + method + " " + path +
			". Please check the URL for typos, or see the docs at https://platform.openai.com/docs/api-reference/."
		if known {
			msg += fmt.Sprintf(" (faultbench serves no scenario %q.)", name)
		}
		return notFound(msg, wr)
	}
	if known {
		return notFound(fmt.Sprintf("Not found: no scenario %q", name), wr)
	}
	return notFound("Not found", wr)
}

// openaiRoutes are the first path segments after v1/ of OpenAI's API.
var openaiRoutes = []string{
	"chat", "responses", "completions", "embeddings", "moderations", "images", "audio", "files", "uploads",
	"assistants", "threads", "vector_stores", "fine_tuning", "realtime", "conversations", "containers", "evals",
}

// wireOfPath is the wire a path the mock does not serve belongs to:
// OpenAI's when the segment after v1/ is one of OpenAI's routes, else
// Anthropic's.
func wireOfPath(path string) wire {
	_, rest, ok := strings.Cut(path, "/v1/")
	if !ok {
		return anthropicWire
	}
	first, _, _ := strings.Cut(rest, "/")
	for _, r := range openaiRoutes {
		if first == r {
			return openaiWire
		}
	}
	return anthropicWire
}

// methodNotAllowed answers a request to an API path that is not a POST.
func methodNotAllowed(method string) *apiError {
	return &apiError{
		status: http.StatusMethodNotAllowed, typ: "invalid_request_error",
		msg: "Method " + method + " not allowed; use POST", kind: kindInvalidRequest,
	}
}

// scripted builds the error a rule answers with: the rule's type and
// message, or the real API's defaults for the status on the wire. wait is
// what the rule's headers ask a client to wait (0: nothing), which
// OpenAI's rate-limit message repeats; OpenAI's overload message names the
// request's ID.
func scripted(wr wire, status int, typ, msg, model string, wait time.Duration, requestID string) *apiError {
	if wr.openai() {
		return openaiScripted(status, typ, msg, model, wait, requestID)
	}
	dt, dm := defaultError(status)
	if typ == "" {
		typ = dt
	}
	if msg == "" {
		msg = dm
	}
	return &apiError{status: status, typ: typ, msg: msg, kind: errorKind(status, typ, msg)}
}

// statusOfType is the status the real API sends an error type with: the
// status of an SSE error event's error when a request that does not
// stream meets it.
func statusOfType(typ string) int {
	switch typ {
	case "", "overloaded_error":
		return 529
	case "invalid_request_error":
		return 400
	case "authentication_error":
		return 401
	case "billing_error":
		return 402
	case "permission_error":
		return 403
	case "not_found_error":
		return 404
	case "timeout_error":
		return 408
	case "conflict_error":
		return 409
	case "request_too_large":
		return 413
	case "rate_limit_error":
		return 429
	}
	return 500
}

// defaultError is the envelope type and message the real Anthropic API
// sends with a status.
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
