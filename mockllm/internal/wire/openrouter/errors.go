package openrouter

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The error types a scenario's rule names on this wire (respond.type).
const (
	// TypeProvider is an error of the provider OpenRouter routed to:
	// "Provider returned error", the provider's name and raw body in
	// metadata, at the rule's status.
	TypeProvider = "provider_error"
	// TypeInBody is an error OpenRouter answers with HTTP 200, the error
	// in the body: the model had started on the request. The error's code
	// is the rule's status.
	TypeInBody = "in_body"
	// LimitCredits and LimitKey are the limit_source of a 402: the
	// account's credits, or the key's own credit limit.
	LimitCredits = "openrouter_credits"
	LimitKey     = "openrouter_key_limit"
)

// routerError is an error in OpenRouter's envelope; limit is a 402's
// limit_source ("" for none), kept in the Error's Param, which
// OpenRouter's envelope has no other use for.
func routerError(status int, kind, msg, limit string) *wire.Error {
	return &wire.Error{Status: status, Code: strconv.Itoa(status), Kind: kind, Message: msg, Param: limit}
}

// NotFound is OpenRouter's 404 for a path it does not serve.
func (Wire) NotFound(_, _, scenario string, known bool) *wire.Error {
	msg := "Not Found"
	if known {
		msg += fmt.Sprintf(" (faultbench serves no scenario %q.)", scenario)
	}
	return routerError(http.StatusNotFound, wire.KindNotFound, msg, "")
}

// UnknownModel is OpenRouter's 400 for a model it does not know, then the
// models the scenario serves.
func (Wire) UnknownModel(name string, served []string) *wire.Error {
	e := routerError(http.StatusBadRequest, wire.KindInvalidRequest, name+" is not a valid model ID", "")
	e.Message += " (faultbench: the scenario serves: " + joined(served) + ".)"
	return e
}

func joined(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// Refused is OpenRouter's 429 for a bucket that cannot pay.
func (Wire) Refused(wire.Refusal) *wire.Error {
	return routerError(http.StatusTooManyRequests, wire.KindRateLimit, "Rate limit exceeded: limit_rpm/anthropic/claude. High demand for this model. Please retry shortly.", "")
}

// Scripted is the error a rule answers with on OpenRouter: a 402 its
// credits' (or, typed openrouter_key_limit, its key's), typed
// provider_error the provider's error, typed in_body an error at HTTP
// 200; else OpenRouter's envelope of the rule's status and message.
func (Wire) Scripted(s wire.Scripted) *wire.Error {
	status, msg := s.Status, s.Msg
	if status == 0 {
		status = http.StatusBadGateway
	}
	kind := wire.ErrorKind(status, "", msg)
	switch {
	case status == http.StatusPaymentRequired:
		limit := LimitCredits
		if s.Type == LimitKey {
			limit = LimitKey
		}
		if msg == "" {
			msg = "Insufficient credits. Add more using https://openrouter.ai/settings/credits"
			if limit == LimitKey {
				msg = "Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys"
			}
		}
		return routerError(status, wire.KindQuotaExhausted, msg, limit)
	case s.Type == TypeProvider:
		if msg == "" {
			msg = "Provider returned error"
		}
		e := routerError(status, kind, msg, "")
		e.Type = TypeProvider
		return e
	case s.Type == TypeInBody:
		if msg == "" {
			msg = "Provider returned error"
		}
		e := routerError(status, kind, msg, "")
		e.Type, e.Status = TypeInBody, http.StatusOK
		return e
	}
	if s.Type == "overloaded_error" || status == 529 {
		kind = wire.KindOverloaded
		if msg == "" {
			msg = "Overloaded"
		}
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	if msg == "" {
		msg = "Provider returned error"
	}
	return routerError(status, kind, msg, "")
}

// appendError appends OpenRouter's error body: {"error":{…},"user_id"}.
func appendError(b []byte, e *wire.Error) []byte {
	b = append(b, `{"error":`...)
	b = appendBody(b, e)
	return append(b, `,"user_id":"user_faultbench"}`...)
}

// appendBody appends the error object: its code (a number: the HTTP
// status, or an in-body error's own), message and metadata.
func appendBody(b []byte, e *wire.Error) []byte {
	code := e.Code
	if _, err := strconv.Atoi(code); err != nil {
		code = strconv.Itoa(e.Status)
	}
	b = append(b, `{"code":`...)
	b = append(b, code...)
	b = append(b, `,"message":`...)
	b = jsonscan.AppendString(b, e.Message)
	switch {
	case e.Param != "":
		b = append(b, `,"metadata":{"limit_source":`...)
		b = jsonscan.AppendString(b, e.Param)
		b = append(b, '}')
	case e.Type == TypeProvider || e.Type == TypeInBody:
		raw := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
		b = append(b, `,"metadata":{"raw":`...)
		b = jsonscan.AppendString(b, raw)
		b = append(b, `,"provider_name":"Anthropic"}`...)
	}
	return append(b, '}')
}
