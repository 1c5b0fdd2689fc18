package anthropic

import "github.com/faultbench/faultbench/mockllm/internal/wire"

// walker reads a Messages request: a scanner that names the field at
// fault in the real API's words. systemRoles lets a message have role
// "system" (the request's betas name PerTurnControl).
type walker struct {
	*wire.Scanner
	pre         *wire.Prefix // the request's cache points
	depth       int          // of content block lists: 1 is a message's own
	systemRoles bool
	// badRole is the first message whose role the API refuses: the walk
	// goes on past it, so that the refused request's input is still
	// measured for the journal.
	badRole *fieldError
}

// fieldError is a request field with the wrong type or a missing required
// one. Its text follows the real API: "max_tokens: Field required".
type fieldError struct {
	path string
	msg  string
}

func (e *fieldError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

// The messages of fieldError, worded as the real API words them.
const (
	msgRequired = "Field required"
	msgString   = "Input should be a valid string"
	msgInteger  = "Input should be a valid integer"
	msgBool     = "Input should be a valid boolean"
	msgList     = "Input should be a valid list"
	msgDict     = "Input should be a valid dictionary"
	msgStrList  = "Input should be a valid string or list"
)

// fail returns a fieldError naming the current path.
func (s *walker) fail(msg string) *fieldError {
	return &fieldError{path: s.Path(), msg: msg}
}

// failKey is fail for a field of the current object that is not there.
func (s *walker) failKey(key, msg string) *fieldError {
	s.Push(key)
	defer s.Pop()
	return s.fail(msg)
}
