package gemini

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/faultbench/faultbench/internal/excerpt"
	"github.com/faultbench/faultbench/recovery"
)

// The @type of the error details the engine reads.
const (
	retryInfoType    = "type.googleapis.com/google.rpc.RetryInfo"
	quotaFailureType = "type.googleapis.com/google.rpc.QuotaFailure"
)

// maxRawMessage bounds how much of a body that is not Google's error JSON
// becomes the message of an APIError.
const maxRawMessage = 1024

// BodyError is an answer whose status and headers arrived but whose body
// could not be read or made sense of (recovery.BodyError).
type BodyError = recovery.BodyError

// sendError is the error of a failed call: the API's error (an error
// status, or an error object inside a stream), a 200 whose body broke
// (recovery.BodyError), or the transport's error.
func sendError(httpResp *http.Response, err error) error {
	var e genai.APIError
	var ep *genai.APIError
	switch {
	case errors.As(err, &e):
		return apiError(e, httpResp, err)
	case errors.As(err, &ep) && ep != nil:
		return apiError(*ep, httpResp, err)
	case httpResp != nil && httpResp.StatusCode >= 400:
		return &recovery.APIError{StatusCode: httpResp.StatusCode, Header: httpResp.Header, Err: err}
	case httpResp != nil: // the status came, the body did not make sense
		return bodyError(httpResp, err)
	}
	return fmt.Errorf("gemini: %w", err)
}

func bodyError(resp *http.Response, err error) *BodyError {
	return &BodyError{Source: "gemini", StatusCode: resp.StatusCode, Header: resp.Header, Err: err}
}

// apiError maps the SDK's error onto the engine's provider-neutral shape:
// the Google status (RESOURCE_EXHAUSTED, UNAVAILABLE, ...) as Type, the
// RetryInfo delay and the QuotaFailure ids of its details. The status is
// the HTTP status the answer came with when there was one (an error inside
// a stream came with 200), else the body's code.
func apiError(e genai.APIError, httpResp *http.Response, err error) *recovery.APIError {
	out := &recovery.APIError{StatusCode: e.Code, Message: e.Message, Err: err}
	if isStatusName(e.Status) {
		out.Type = e.Status
	} else if e.Message != "" && e.Details == nil {
		// A body that is not Google's error JSON (a proxy's page): the SDK
		// hands back its text.
		out.Message = excerpt.Prefix(strings.TrimSpace(e.Message), maxRawMessage)
	}
	if httpResp != nil {
		out.Header = httpResp.Header
		if out.StatusCode == 0 {
			out.StatusCode = httpResp.StatusCode
		}
	}
	readDetails(out, e.Details)
	if out.RetryDelay == 0 && len(e.Details) == 0 {
		out.RetryDelay = messageDelay(e.Message)
	}
	return out
}

// isStatusName reports whether s is a Google status name (UPPER_SNAKE),
// not the "503 Service Unavailable" the SDK puts there for a body that is
// not JSON.
func isStatusName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < 'A' || r > 'Z') && r != '_' {
			return false
		}
	}
	return true
}

// readDetails reads google.rpc.RetryInfo's retryDelay and each
// google.rpc.QuotaFailure violation's quotaId.
func readDetails(out *recovery.APIError, details []map[string]any) {
	for _, d := range details {
		switch d["@type"] {
		case retryInfoType:
			if s, ok := d["retryDelay"].(string); ok {
				if delay, ok := parseDelay(s); ok {
					out.RetryDelay = delay
				}
			}
		case quotaFailureType:
			vs, _ := d["violations"].([]any)
			for _, v := range vs {
				if m, ok := v.(map[string]any); ok {
					if id, ok := m["quotaId"].(string); ok {
						out.QuotaIDs = append(out.QuotaIDs, id)
					}
				}
			}
		}
	}
}

// parseDelay reads a google.protobuf.Duration in JSON ("14s",
// "34.074824224s"), or "900ms" as Gemini CLI also reads; a negative or
// unreadable one is not a delay.
func parseDelay(s string) (time.Duration, bool) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d < 0 {
		return 0, false
	}
	return d, true
}

// pleaseRetry is the wait a message names when the body has no details:
// "Please retry in 14.65s." (Gemini CLI reads it so).
var pleaseRetry = regexp.MustCompile(`Please retry in ([0-9.]+(?:ms|s))`)

func messageDelay(msg string) time.Duration {
	m := pleaseRetry.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	d, _ := parseDelay(m[1])
	return d
}
