package wire

import (
	"net/http"
	"strings"
	"time"
)

// Error is an error answer: the status, the envelope's type and message,
// and the kind the journal records. Param and Code are OpenAI's (empty is
// null); the Anthropic envelope has neither.
type Error struct {
	Status  int
	Type    string
	Message string
	Kind    string
	Param   string
	Code    string
	// Details is the wire's own list of error details, as JSON (Gemini's
	// google.rpc QuotaFailure, Help and RetryInfo); nil for none.
	Details []byte
	// Wait is the wait the body itself asks for (Gemini's RetryInfo
	// retryDelay); 0 when the body asks none. The server journals it as
	// the wait asked.
	Wait time.Duration
	// Body is the rule's own body for the error, sent as written in place
	// of the wire's envelope (a provider's shape: OpenRouter's,
	// DeepSeek's); nil takes the wire's.
	Body []byte
	// Bucket is the bucket that refused a rate-limited request
	// (BucketRequests, BucketInput, BucketOutput), so that the headers of
	// its 429 tell of the bucket its message names; "" for any other
	// error.
	Bucket string
}

// InvalidRequest is a 400 invalid_request_error.
func InvalidRequest(msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Type: "invalid_request_error", Message: msg, Kind: KindInvalidRequest}
}

// ContextOverflow is a 400 that says the input does not fit the window.
func ContextOverflow(msg string) *Error {
	e := InvalidRequest(msg)
	e.Kind = KindContextOverflow
	return e
}

// The kinds of answer the journal records.
const (
	KindOK              = "ok"
	KindTruncated       = "truncated"
	KindContextOverflow = "context_overflow"
	KindInvalidRequest  = "invalid_request"
	KindAuth            = "auth"
	KindQuotaExhausted  = "quota_exhausted"
	KindPermission      = "permission"
	KindNotFound        = "not_found"
	KindTimeout         = "timeout"
	KindConflict        = "conflict"
	KindRequestTooLarge = "request_too_large"
	KindRateLimit       = "rate_limit"
	KindServer          = "server"
	KindOverloaded      = "overloaded"
	// What a fault leaves the client with.
	KindConnection = "connection" // reset, garbage, a cut body or stream
	KindMalformed  = "malformed"  // a 200 whose JSON is broken
	KindEmpty      = "empty"      // a 200 with no body, or a stream with no event
)

// ErrorKind labels an error answer the way a classifier reading every
// layer would (docs/classification.md): the status first, then the
// envelope's type and message where they say more.
func ErrorKind(status int, typ, msg string) string {
	switch {
	case status == 529 || typ == "overloaded_error":
		return KindOverloaded
	case (status == 400 || status == 413 || status == 422) && IsContextMessage(msg):
		return KindContextOverflow
	case status == 402 || typ == "billing_error":
		return KindQuotaExhausted
	case status == 429:
		if Mentions(msg, "quota", "billing", "credit", "usage limit") {
			return KindQuotaExhausted
		}
		return KindRateLimit
	case status == 401:
		return KindAuth
	case status == 403:
		return KindPermission
	case status == 404:
		return KindNotFound
	case status == 408:
		return KindTimeout
	case status == 409:
		return KindConflict
	case status == 413:
		return KindRequestTooLarge
	case status >= 500:
		return KindServer
	}
	return KindInvalidRequest
}

// IsContextMessage reports whether an error message says the context or
// prompt is too long, as the two window 400s and other providers' do.
func IsContextMessage(msg string) bool {
	return Mentions(msg, "prompt is too long", "context limit", "context length", "context window")
}

// Mentions reports whether msg contains any of words, ignoring case.
func Mentions(msg string, words ...string) bool {
	msg = strings.ToLower(msg)
	for _, w := range words {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// MethodNotAllowed is the answer to a request to an API path that is not
// a POST.
func MethodNotAllowed(method string) *Error {
	return &Error{
		Status: http.StatusMethodNotAllowed, Type: "invalid_request_error",
		Message: "Method " + method + " not allowed; use POST", Kind: KindInvalidRequest,
	}
}
