package mockllm

import "github.com/faultbench/faultbench/internal/jsonscan"

// scanner is a jsonscan.Scanner as the request decoders walk it: with
// where the content of the last message read sits, and the session's memo
// of the last body (memo.go).
type scanner struct {
	jsonscan.Scanner
	// last is where the content of the last message read sits in the body.
	lastStart, lastEnd int
	// memo is what the last body of the session held (memo.go), nil when
	// it keeps none or a message differed; with remember set, recs
	// gathers this body's messages for the next.
	memo     *bodyMemo
	remember bool
	recs     []memoMsg
}

func newScanner(b []byte) *scanner {
	s := &scanner{}
	s.Reset(b)
	return s
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
func (s *scanner) fail(msg string) *fieldError {
	return &fieldError{path: s.Path(), msg: msg}
}

// failKey is fail for a field of the current object that is not there.
func (s *scanner) failKey(key, msg string) *fieldError {
	s.Push(key)
	defer s.Pop()
	return s.fail(msg)
}
