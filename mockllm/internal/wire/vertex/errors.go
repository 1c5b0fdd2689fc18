package vertex

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The errors Vertex's gateway answers itself are Google's: a wire.Error
// whose Type is a google.rpc status name (RESOURCE_EXHAUSTED) renders as
// {"error":{"code","message","status"}}; the rest are Anthropic's, which
// Vertex passes on from the model.

// The google.rpc status names a rule may write as its type on this wire.
const (
	StatusResourceExhausted  = "RESOURCE_EXHAUSTED"
	StatusFailedPrecondition = "FAILED_PRECONDITION"
	StatusPermissionDenied   = "PERMISSION_DENIED"
	StatusUnauthenticated    = "UNAUTHENTICATED"
	StatusNotFound           = "NOT_FOUND"
	StatusInvalidArgument    = "INVALID_ARGUMENT"
	StatusUnavailable        = "UNAVAILABLE"
	StatusInternal           = "INTERNAL"
)

// google is an error of Vertex's gateway.
func google(status int, name, kind, msg string) *wire.Error {
	return &wire.Error{Status: status, Type: name, Kind: kind, Message: msg}
}

// statusOf is the HTTP status and default message of a Google status
// name; ok is false for a name this wire does not word.
func statusOf(name string) (status int, msg string, ok bool) {
	switch name {
	case StatusResourceExhausted:
		return http.StatusTooManyRequests, quotaMessage, true
	case StatusFailedPrecondition:
		return http.StatusBadRequest, "Precondition check failed.", true
	case StatusPermissionDenied:
		return http.StatusForbidden, "Permission 'aiplatform.endpoints.predict' denied on resource (or it may not exist).", true
	case StatusUnauthenticated:
		return http.StatusUnauthorized, "Request had invalid authentication credentials.", true
	case StatusNotFound:
		return http.StatusNotFound, "Requested entity was not found.", true
	case StatusInvalidArgument:
		return http.StatusBadRequest, "Request contains an invalid argument.", true
	case StatusUnavailable:
		return http.StatusServiceUnavailable, "The service is currently unavailable.", true
	case StatusInternal:
		return http.StatusInternalServerError, "Internal error encountered.", true
	}
	return 0, "", false
}

// isGoogle reports whether e is the gateway's, to be worded as Google's.
func isGoogle(e *wire.Error) bool {
	_, _, ok := statusOf(e.Type)
	return ok
}

// quotaMessage is the 429 of a spent per-minute quota (a quota of 0
// among them), in Vertex's words.
const quotaMessage = "Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude. " +
	"Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai."

// quota is Vertex's 429 RESOURCE_EXHAUSTED: msg, or the quota message.
// It is a per-minute quota, so the journal's kind is a rate limit.
func quota(msg string) *wire.Error {
	if msg == "" {
		msg = quotaMessage
	}
	return google(http.StatusTooManyRequests, StatusResourceExhausted, wire.KindRateLimit, msg)
}

// NotFound is Google's 404 for a path Vertex does not serve.
func (Wire) NotFound(_, _, scenario string, known bool) *wire.Error {
	msg := "Requested entity was not found."
	if known {
		msg += fmt.Sprintf(" (faultbench serves no scenario %q.)", scenario)
	}
	return google(http.StatusNotFound, StatusNotFound, wire.KindNotFound, msg)
}

// UnknownModel is Vertex's 404 for a publisher model it does not serve,
// then the models the scenario serves.
func (Wire) UnknownModel(name string, served []string) *wire.Error {
	return google(http.StatusNotFound, StatusNotFound, wire.KindNotFound,
		"Publisher Model `publishers/anthropic/models/"+name+"` was not found or your project does not have access to it. "+
			"Please ensure you are using a valid model version. (faultbench: the scenario serves: "+strings.Join(served, ", ")+".)")
}

// Refused is the 429 of a bucket that cannot pay: Vertex's quota error,
// which names no wait.
func (Wire) Refused(wire.Refusal) *wire.Error { return quota("") }

// Scripted is the error a rule answers with on Vertex: a type that is a
// Google status name (RESOURCE_EXHAUSTED, FAILED_PRECONDITION, …) is the
// gateway's error of that status; a 429, 401, 403 or 404 with no type is
// the gateway's too (a 429 Vertex's quota error); the rest are
// Anthropic's (overloaded_error, api_error), as the model answers them.
func (w Wire) Scripted(s wire.Scripted) *wire.Error {
	if status, msg, ok := statusOf(s.Type); ok {
		if s.Status != 0 {
			status = s.Status
		}
		if s.Msg != "" {
			msg = s.Msg
		}
		kind := wire.ErrorKind(status, "", msg)
		if s.Type == StatusResourceExhausted {
			kind = wire.KindRateLimit
		}
		return google(status, s.Type, kind, msg)
	}
	if s.Type == "" {
		switch s.Status {
		case http.StatusTooManyRequests:
			return quota(s.Msg)
		case http.StatusUnauthorized:
			s.Type = StatusUnauthenticated
			return w.Scripted(s)
		case http.StatusForbidden:
			s.Type = StatusPermissionDenied
			return w.Scripted(s)
		case http.StatusNotFound:
			s.Type = StatusNotFound
			return w.Scripted(s)
		}
	}
	return w.Wire.Scripted(s)
}

// appendGoogle appends Google's envelope of e; a 429 RESOURCE_EXHAUSTED
// as a JSON array of that one envelope, as Vertex sends its quota error.
func appendGoogle(b []byte, e *wire.Error) []byte {
	array := e.Type == StatusResourceExhausted
	if array {
		b = append(b, '[')
	}
	b = append(b, `{"error":{"code":`...)
	b = strconv.AppendInt(b, int64(e.Status), 10)
	b = append(b, `,"message":`...)
	b = jsonscan.AppendString(b, e.Message)
	b = append(b, `,"status":`...)
	b = jsonscan.AppendString(b, e.Type)
	b = append(b, "}}"...)
	if array {
		b = append(b, ']')
	}
	return b
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
