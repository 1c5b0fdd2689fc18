package recovery

import "slices"

// Kind names what went wrong with an attempt (docs/classification.md). KindOK marks an
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
// a failure of this kind: the kinds a classifying strategy retries when its
// Retry list is nil.
func (k Kind) Transient() bool { return slices.Contains(transientKinds, k) }

// Kinds returns every kind, in the order of docs/classification.md's table (ok first).
func Kinds() []Kind {
	return []Kind{
		KindOK, KindRateLimit, KindQuotaExhausted, KindOverloaded, KindServer, KindTimeout, KindConflict,
		KindConnection, KindContextOverflow, KindRequestTooLarge, KindInvalidRequest, KindAuth, KindPermission,
		KindNotFound, KindTruncated, KindEmptyResponse, KindRefusal, KindCancelled, KindUnknown,
	}
}
