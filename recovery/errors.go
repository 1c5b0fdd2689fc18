package recovery

import (
	"errors"
	"fmt"
)

// ErrGaveUp is the sentinel every *GiveUpError matches with errors.Is.
var ErrGaveUp = errors.New("recovery: gave up")

// GiveUpError says why the engine stopped without an answer. It wraps the
// last underlying error.
type GiveUpError struct {
	Kind     Kind   // the kind of the last failure
	Attempts int    // turn attempts sent
	Reason   string // why no further attempt was made
	Err      error  // the last underlying error
}

func (e *GiveUpError) Error() string {
	return fmt.Sprintf("recovery: gave up after %d attempts (%s: %s): %v", e.Attempts, e.Kind, e.Reason, e.Err)
}

// Unwrap returns the last underlying error.
func (e *GiveUpError) Unwrap() error { return e.Err }

// Is matches ErrGaveUp.
func (e *GiveUpError) Is(target error) bool { return target == ErrGaveUp }

// AsGiveUp returns err's *GiveUpError, if it has one.
func AsGiveUp(err error) (*GiveUpError, bool) {
	var g *GiveUpError
	ok := errors.As(err, &g)
	return g, ok
}
