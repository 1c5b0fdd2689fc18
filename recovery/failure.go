package recovery

import (
	"net/http"
	"time"
)

// Failure is the classification of one attempt's outcome.
type Failure struct {
	Kind       Kind
	StatusCode int         // 0 for a transport error
	Header     http.Header // response headers, when there was a response
	// ShouldRetry is the server's x-should-retry directive, when it sent one.
	ShouldRetry *bool
	// Overflow holds the numbers a context-overflow message carries.
	Overflow Overflow
	// OutputLimit is the model's most output tokens, when a 400 says that
	// max_tokens was above it (ParseOutputLimit); 0 otherwise.
	OutputLimit int
	// MidStream: the failure came after a streamed answer's status had
	// arrived (the error matches ErrStreamBroken).
	MidStream bool
	// RetryDelay is the wait the error body asks for (APIError.RetryDelay:
	// Google's RetryInfo), 0 when it names none. A strategy reads it only
	// with RetryAfter.RetryInfo.
	RetryDelay time.Duration
	Err        error // the error classified, nil for a response
}

// Overflow is what a context-overflow error says about the request. A zero
// field was not in the message.
type Overflow struct {
	Input     int // input tokens the server counted
	MaxTokens int // the max_tokens it was asked for, when it says so
	Window    int // the model's context window
}

// Classifier turns an attempt's result into a Failure. Exactly one of resp
// and err is non-nil. DefaultClassifier is the one the engine uses unless
// told otherwise.
type Classifier func(resp *Response, err error) Failure
