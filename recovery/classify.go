package recovery

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

var _ Classifier = DefaultClassifier

// DefaultClassifier classifies an attempt as docs/classification.md describes, reading
// every layer it is given:
//
//   - on an answer (HTTP 200), the stop reason and emptiness: max_tokens
//     (or OpenAI's length) is truncated, refusal (or content_filter) a
//     refusal, model_context_window_exceeded a context overflow, no text
//     with stop reason end_turn, stop (OpenAI) or none an empty response,
//     anything else ok;
//   - the caller's context: context.Canceled is cancelled,
//     context.DeadlineExceeded a timeout;
//   - an *APIError anywhere in the chain: its status, error type and code,
//     the wording of its message (a 400, 413 or 422 that says the prompt or
//     context is too long is a context overflow, with the numbers
//     ParseOverflow finds) and its x-should-retry header (a 200 whose body
//     held an error, OpenRouter's, is read as the status its numeric Code
//     names); Azure OpenAI's
//     code content_filter is a refusal, and its code "429" a rate limit
//     whatever its message says of quotas; Amazon Bedrock's exceptions, by
//     the name in the error's type or x-amzn-ErrorType (bedrock.go:
//     ThrottlingException a rate limit, ModelNotReadyException and
//     ServiceUnavailableException an overload, ServiceQuotaExceededException
//     a spent quota);
//   - a transport error, by its cause chain: a net.Error that timed out is a
//     timeout; a reset, refused, aborted or broken connection, an
//     unexpected EOF, a TLS handshake or certificate failure or any other
//     *net.OpError is a connection failure;
//   - an error that matches ErrStreamBroken is classified by its cause as
//     above, and marked MidStream.
//
// Everything else is unknown. It never reads an error's Error() text, only
// the values in the chain (errors.Is, errors.As). A Provider that returns
// neither an answer nor an error gets unknown.
func DefaultClassifier(resp *Response, err error) Failure {
	f := Failure{Kind: KindUnknown, Err: err}
	if resp != nil {
		f.Header = resp.Header
	}
	switch {
	case err != nil:
		classifyError(&f, err)
	case resp != nil:
		classifyAnswer(&f, resp)
	}
	return f
}

func classifyAnswer(f *Failure, resp *Response) {
	f.StatusCode = http.StatusOK
	switch resp.StopReason {
	case "max_tokens", "length":
		f.Kind = KindTruncated
	case "refusal", "content_filter":
		f.Kind = KindRefusal
	case "model_context_window_exceeded":
		f.Kind = KindContextOverflow
		f.Overflow = Overflow{Input: resp.InputTokens}
	case "end_turn", "stop", "":
		if resp.Text == "" {
			f.Kind = KindEmptyResponse
		} else {
			f.Kind = KindOK
		}
	default:
		f.Kind = KindOK
	}
}

func classifyError(f *Failure, err error) {
	f.MidStream = errors.Is(err, ErrStreamBroken)
	if errors.Is(err, context.Canceled) {
		f.Kind = KindCancelled
		return
	}
	if errors.Is(err, context.DeadlineExceeded) {
		f.Kind = KindTimeout
		return
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		classifyAPIError(f, apiErr)
		return
	}
	f.Kind = transportKind(err)
}

func classifyAPIError(f *Failure, e *APIError) {
	f.StatusCode = e.StatusCode
	if e.Header != nil {
		f.Header = e.Header
	}
	f.ShouldRetry = shouldRetryHeader(e.Header)
	f.RetryDelay = e.RetryDelay

	switch e.StatusCode {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		if o, ok := ParseOverflow(e.Message); ok {
			f.Kind, f.Overflow = KindContextOverflow, o
			return
		}
		if e.Code == "context_length_exceeded" || mentionsContext(e.Message) {
			f.Kind = KindContextOverflow
			return
		}
	}
	if e.Code == "content_filter" {
		// Azure OpenAI's content filter refused the prompt: the same
		// prompt is refused again.
		f.Kind = KindRefusal
		return
	}
	if k, ok := googleKind(e); ok {
		f.Kind = k
		return
	}
	if k, ok := bedrockKind(e); ok { // bedrock.go
		f.Kind = k
		return
	}
	if e.StatusCode == 529 || e.Type == "overloaded_error" {
		f.Kind = KindOverloaded
		return
	}

	code := e.StatusCode
	if n, err := strconv.Atoi(e.Code); err == nil && code == http.StatusOK && n >= 400 && n <= 599 {
		// An error a 200 carried in its body (OpenRouter's), its code
		// the status it would have had.
		code = n
	}
	switch {
	case code == http.StatusBadRequest:
		// Anthropic answers an empty balance with a 400 ("Your credit
		// balance is too low"); it stops the turn either way.
		if containsAny(e.Message, "credit balance") {
			f.Kind = KindQuotaExhausted
		} else {
			f.Kind = KindInvalidRequest
			f.OutputLimit, _ = ParseOutputLimit(e.Message)
		}
	case code == http.StatusUnauthorized:
		f.Kind = KindAuth
	case code == http.StatusPaymentRequired:
		f.Kind = KindQuotaExhausted
	case code == http.StatusForbidden:
		f.Kind = KindPermission
	case code == http.StatusNotFound:
		f.Kind = KindNotFound
	case code == http.StatusRequestTimeout:
		f.Kind = KindTimeout
	case code == http.StatusConflict:
		f.Kind = KindConflict
	case code == http.StatusRequestEntityTooLarge:
		f.Kind = KindRequestTooLarge
	case code == http.StatusUnprocessableEntity:
		f.Kind = KindInvalidRequest
	case code == http.StatusTooManyRequests:
		if quotaExhausted(e) {
			f.Kind = KindQuotaExhausted
		} else {
			f.Kind = KindRateLimit
		}
	case code >= 500 && code <= 599:
		f.Kind = KindServer
	default:
		f.Kind = KindUnknown
	}
}

// quotaExhausted tells a 429 that will not pass with time (OpenAI's
// insufficient_quota, Anthropic's spend limits, any body that speaks of
// quota, billing, credit or usage limits) from a rate limit. A code that names a rate
// limit settles it first: OpenAI's free-tier rate_limit_exceeded message
// points at the billing page, Azure's "429" at its quota-increase form.
func quotaExhausted(e *APIError) bool {
	switch e.Code {
	case "insufficient_quota", "contract_spend_limit_reached", "enforced_spend_limit_reached":
		return true
	case "rate_limit_exceeded", "ramp_limit_exceeded", "429":
		// Azure OpenAI's gateway codes its rate limit "429", in a message
		// that points at aka.ms/oai/quotaincrease: a wait fixes it.
		return false
	}
	return containsAny(e.Type, "quota", "billing", "credit") ||
		containsAny(e.Message, "quota", "billing", "credit", "usage limit")
}

// googleKind reads a Google status (the error's status field, which
// recovery/gemini puts in Type, as recovery/anthropic does for Vertex
// AI's gateway errors) where it settles the kind, so that an
// error object inside a stream, which came with HTTP 200, is read as its
// status says. A 429 RESOURCE_EXHAUSTED is a quota that will not pass
// with time when a QuotaFailure violation names a per-day quota (a
// quotaId with PerDay or Daily) or the message says "limit: 0" (the model
// is not in the plan), and a rate limit otherwise, whatever its message
// says of quotas (the per-minute one says "You exceeded your current
// quota"). A 503 UNAVAILABLE ("The model is overloaded") is Gemini's
// overload. INVALID_ARGUMENT is left to the status, so that the overflow
// wording is read first.
func googleKind(e *APIError) (Kind, bool) {
	if e.Type == "RESOURCE_EXHAUSTED" || (e.StatusCode == http.StatusTooManyRequests && len(e.QuotaIDs) > 0) {
		for _, id := range e.QuotaIDs {
			if strings.Contains(id, "PerDay") || strings.Contains(id, "Daily") {
				return KindQuotaExhausted, true
			}
		}
		if limitZero.MatchString(e.Message) {
			return KindQuotaExhausted, true
		}
		return KindRateLimit, true
	}
	k, ok := googleStatuses[e.Type]
	return k, ok
}

// googleStatuses are the kinds of the other Google statuses.
var googleStatuses = map[string]Kind{
	"UNAVAILABLE":       KindOverloaded,
	"INTERNAL":          KindServer,
	"UNKNOWN":           KindServer,
	"DATA_LOSS":         KindServer,
	"DEADLINE_EXCEEDED": KindServer,
	"PERMISSION_DENIED": KindPermission,
	"NOT_FOUND":         KindNotFound,
	"UNAUTHENTICATED":   KindAuth,
	"ABORTED":           KindConflict,
}

// limitZero is the "limit: 0" of a quota the plan does not include (not
// "limit: 0.5" or "limit: 05").
var limitZero = regexp.MustCompile(`(?i)limit:\s*0(?:[^\d.]|\.\D|\.?$)`)

// contextWords are the phrases by which servers say, without numbers, that
// the prompt does not fit the model's context. They stay about the context
// or the input: "max_tokens: 64000 > 32000, which is the maximum allowed
// number of output tokens" is an invalid request, not an overflow.
var contextWords = []string{
	"prompt is too long",
	"prompt too long",
	"input is too long",
	"input too long",
	"context length",
	"context_length_exceeded",
	"context window",
	"context limit",
	"maximum context",
	"too many input tokens",
	"input token count",
}

func mentionsContext(msg string) bool { return containsAny(msg, contextWords...) }

// containsAny reports whether s contains any of words, ignoring case.
func containsAny(s string, words ...string) bool {
	s = strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// shouldRetryHeader reads x-should-retry; nil when it is absent or neither true
// nor false.
func shouldRetryHeader(h http.Header) *bool {
	var v bool
	switch strings.ToLower(strings.TrimSpace(h.Get("x-should-retry"))) {
	case "true":
		v = true
	case "false":
		v = false
	default:
		return nil
	}
	return &v
}

// transportKind classifies an error that carries no response by its cause
// chain.
func transportKind(err error) Kind {
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return KindTimeout
	}
	for _, cause := range []error{
		syscall.ECONNRESET, syscall.ECONNREFUSED, syscall.ECONNABORTED, syscall.EPIPE,
		io.ErrUnexpectedEOF, io.EOF, net.ErrClosed,
	} {
		if errors.Is(err, cause) {
			return KindConnection
		}
	}
	if tlsFailure(err) {
		return KindConnection
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return KindConnection
	}
	return KindUnknown
}

// tlsFailure reports a TLS handshake or certificate failure in err's
// chain: an unknown authority, an expired or invalid certificate, a name
// mismatch, a server that does not speak TLS, an alert from the peer.
// Retrying helps only when a proxy or a load balancer was at fault, but it
// is a failure of the connection, not of the request.
func tlsFailure(err error) bool {
	var (
		verify   *tls.CertificateVerificationError
		record   tls.RecordHeaderError
		alert    tls.AlertError
		unknown  x509.UnknownAuthorityError
		invalid  x509.CertificateInvalidError
		hostname x509.HostnameError
	)
	return errors.As(err, &verify) || errors.As(err, &record) || errors.As(err, &alert) ||
		errors.As(err, &unknown) || errors.As(err, &invalid) || errors.As(err, &hostname)
}
