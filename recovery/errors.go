package recovery

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// BodyError is an answer whose status and headers arrived but whose body
// could not be read or made sense of: a body cut short, JSON that does not
// parse, no body at all, a stream that broke off or ended early. It wraps
// the cause, so that a classifier finds io.ErrUnexpectedEOF, a timeout or
// a reset in its chain; HTTPStatus tells a ledger what status the client
// saw. The SDK transports return it.
type BodyError struct {
	Source     string // the transport: "anthropic", "openai"
	StatusCode int
	Header     http.Header
	Err        error
}

func (e *BodyError) Error() string {
	return fmt.Sprintf("%s: HTTP %d answer unreadable: %v", e.Source, e.StatusCode, e.Err)
}

// Unwrap returns the cause.
func (e *BodyError) Unwrap() error { return e.Err }

// HTTPStatus is the status the answer came with.
func (e *BodyError) HTTPStatus() int { return e.StatusCode }

// ErrGaveUp is the sentinel every *GiveUpError matches with errors.Is.
var ErrGaveUp = errors.New("recovery: gave up")

// ErrStreamBroken is what a Provider wraps, beside the cause, in the error
// of a streamed answer that failed after its status arrived: the stream
// was cut, ended early, carried an error event or stalled. The classifier
// marks such a failure MidStream.
var ErrStreamBroken = errors.New("the stream failed after it began")

// Stop says why the engine made no further attempt. Each Stop has a
// sentinel error that the *GiveUpError matches with errors.Is, so a caller
// can write errors.Is(err, recovery.ErrWaitBudget).
type Stop string

// Why a turn stops without an answer.
const (
	// StopNotRetryable: the failure is of a kind the strategy does not
	// resend (invalid request, permission, quota, ...).
	StopNotRetryable Stop = "not_retryable"
	// StopServerSaidNo: the server sent x-should-retry: false.
	StopServerSaidNo Stop = "server_said_no"
	// StopAttempts: the step's (or the turn's) attempts ran out.
	StopAttempts Stop = "attempts_exhausted"
	// StopWaitBudget: the next wait would break the wait budget.
	StopWaitBudget Stop = "wait_budget"
	// StopRetryAfterCap: the server asked for a wait above the cap and the
	// strategy gives up there.
	StopRetryAfterCap Stop = "retry_after_above_cap"
	// StopCompactionLimit: the context still overflows after the most
	// compactions a turn may make, or compaction is off.
	StopCompactionLimit Stop = "compaction_limit"
	// StopCompactionFailed: the summarisation call failed, or there was
	// nothing left to summarise.
	StopCompactionFailed Stop = "compaction_failed"
	// StopNoFallback: the failure asks for another model and none is left.
	StopNoFallback Stop = "no_fallback"
	// StopAuth: a 401 with no refresh left (no hook, the hook failed, or a
	// second 401 after the refresh).
	StopAuth Stop = "auth"
	// StopShed: a background request met an overload and was dropped.
	StopShed Stop = "shed"
	// StopRetryBudget: the failure was retryable, but the Engine's retry
	// budget (Strategy.RetryBudget) had no retry left.
	StopRetryBudget Stop = "retry_budget"
	// StopCircuitOpen: the model's circuit breaker is open (or half-open
	// with its probe out) and no fallback model is left.
	StopCircuitOpen Stop = "circuit_open"
	// StopCancelled: the caller's context ended.
	StopCancelled Stop = "cancelled"
)

// The sentinels of each Stop.
var (
	ErrNotRetryable    = errors.New("recovery: not retryable")
	ErrServerSaidNo    = errors.New("recovery: server said x-should-retry: false")
	ErrAttempts        = errors.New("recovery: attempts exhausted")
	ErrWaitBudget      = errors.New("recovery: wait budget exhausted")
	ErrRetryAfterCap   = errors.New("recovery: server asked to wait longer than the cap")
	ErrCompactionLimit = errors.New("recovery: compaction could not bring the context under the window")
	ErrCompaction      = errors.New("recovery: compaction failed")
	ErrNoFallback      = errors.New("recovery: no fallback model left")
	ErrAuth            = errors.New("recovery: credentials rejected")
	ErrShed            = errors.New("recovery: background request shed on overload")
	ErrRetryBudget     = errors.New("recovery: retry budget spent")
	ErrCircuitOpen     = errors.New("recovery: circuit breaker open")
	ErrCancelled       = errors.New("recovery: cancelled")
)

var stopSentinels = map[Stop]error{
	StopNotRetryable:     ErrNotRetryable,
	StopServerSaidNo:     ErrServerSaidNo,
	StopAttempts:         ErrAttempts,
	StopWaitBudget:       ErrWaitBudget,
	StopRetryAfterCap:    ErrRetryAfterCap,
	StopCompactionLimit:  ErrCompactionLimit,
	StopCompactionFailed: ErrCompaction,
	StopNoFallback:       ErrNoFallback,
	StopAuth:             ErrAuth,
	StopShed:             ErrShed,
	StopRetryBudget:      ErrRetryBudget,
	StopCircuitOpen:      ErrCircuitOpen,
	StopCancelled:        ErrCancelled,
}

// Sentinel returns the error that a *GiveUpError with this Stop matches.
func (s Stop) Sentinel() error { return stopSentinels[s] }

// GiveUpError says why the engine stopped without an answer. It wraps the
// last underlying error: errors.As finds the *APIError or the transport
// error in it, errors.Is finds ErrGaveUp, the sentinel of Stop, and
// anything in the last error's chain (context.Canceled, say).
type GiveUpError struct {
	Kind     Kind          // the kind of the last failure
	Stop     Stop          // why no further attempt was made
	Attempts int           // turn attempts sent
	Waited   time.Duration // time waited in all
	Budget   time.Duration // the wait budget in force, 0 for none
	Reason   string        // Stop in words, with the figures
	Err      error         // the last underlying error
}

func (e *GiveUpError) Error() string {
	return fmt.Sprintf("recovery: gave up after %d attempts (%s: %s): %v", e.Attempts, e.Kind, e.Reason, e.Err)
}

// Unwrap returns the last underlying error.
func (e *GiveUpError) Unwrap() error { return e.Err }

// Is matches ErrGaveUp and the sentinel of e.Stop.
func (e *GiveUpError) Is(target error) bool {
	if target == ErrGaveUp {
		return true
	}
	s := stopSentinels[e.Stop]
	return s != nil && target == s
}

// AsGiveUp returns err's *GiveUpError, if it has one.
func AsGiveUp(err error) (*GiveUpError, bool) {
	var g *GiveUpError
	ok := errors.As(err, &g)
	return g, ok
}
