package recovery

// Kind names what went wrong with an attempt (SPEC §4). KindOK marks an
// attempt that needs no recovery.
type Kind string

// The kinds of failure.
const (
	KindOK              Kind = "ok"
	KindRateLimit       Kind = "rate_limit"
	KindQuotaExhausted  Kind = "quota_exhausted"
	KindOverloaded      Kind = "overloaded"
	KindServer          Kind = "server"
	KindTimeout         Kind = "timeout"
	KindConflict        Kind = "conflict"
	KindConnection      Kind = "connection"
	KindContextOverflow Kind = "context_overflow"
	KindRequestTooLarge Kind = "request_too_large"
	KindInvalidRequest  Kind = "invalid_request"
	KindAuth            Kind = "auth"
	KindPermission      Kind = "permission"
	KindNotFound        Kind = "not_found"
	KindTruncated       Kind = "truncated"
	KindEmptyResponse   Kind = "empty_response"
	KindRefusal         Kind = "refusal"
	KindCancelled       Kind = "cancelled"
	KindUnknown         Kind = "unknown"
)

// Transient reports whether waiting and resending the same request can fix
// a failure of this kind.
func (k Kind) Transient() bool {
	switch k {
	case KindRateLimit, KindOverloaded, KindServer, KindTimeout, KindConflict,
		KindConnection, KindEmptyResponse, KindUnknown:
		return true
	}
	return false
}
