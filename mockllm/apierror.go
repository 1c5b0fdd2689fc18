package mockllm

import "github.com/faultbench/faultbench/mockllm/internal/wire"

// statusOfType is the status the real API sends an error type with: the
// status of an SSE error event's error when a request that does not
// stream meets it. A scenario names error types in Anthropic's words.
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

// statusOf is the status of an error type on a wire: the wire's own, for
// a wire that names its errors (Bedrock's ThrottlingException), else
// statusOfType's.
func statusOf(w wire.Wire, typ string) int {
	if ts, ok := w.(wire.TypeStatus); ok {
		if status, ok := ts.StatusOfType(typ); ok {
			return status
		}
	}
	return statusOfType(typ)
}
