package wire

import "time"

// Answer is a 200 reply's content: one text block, then any tool calls.
type Answer struct {
	ID, Model, Text, Stop string
	Input, Output         int
	Tools                 []ToolCall
	// CacheRead is the input read from the prompt cache, CacheWrite5m
	// and CacheWrite1h what the answer wrote to it for each lifetime;
	// all are part of Input.
	CacheRead, CacheWrite5m, CacheWrite1h int
}

// Uncached is the input neither read from the cache nor written to it
// (Anthropic's input_tokens).
func (a *Answer) Uncached() int { return a.Input - a.CacheRead - a.CacheWrite5m - a.CacheWrite1h }

// Cached reports whether the answer's usage has cache figures to show.
func (a *Answer) Cached() bool { return a.CacheRead+a.CacheWrite5m+a.CacheWrite1h > 0 }

// HasText reports whether the answer has a text block: an answer that
// only calls tools has none, since the real APIs send none (Anthropic's
// content starts with the tool_use, OpenAI's content is null) and refuse
// an empty text block echoed back.
func (a *Answer) HasText() bool { return a.Text != "" || len(a.Tools) == 0 }

// Truncated reports whether the answer was cut at max_tokens.
func (a *Answer) Truncated() bool { return a.Stop == "max_tokens" }

// ToolCall is a tool_use block of an answer (OpenAI: a tool call).
type ToolCall struct {
	ID, Name string
	Input    string // the arguments, as JSON
}

// Reply is what a wire renders: an error or an answer, and what the
// request and the session's clock said of it.
type Reply struct {
	Ans Answer
	Err *Error
	// Failure is the SSE error event of a fault with error_after.
	Failure *Error
	// Usage is OpenAI's stream_options.include_usage.
	Usage bool
	// Array streams the answer as one JSON array of the wire's chunks,
	// not as server-sent events (Request.Array).
	Array     bool
	RequestID string
	Created   int64 // OpenAI's "created": the session's clock, Unix seconds
	Input     int   // the request's input tokens
	// Wait is what an error's headers ask the client to wait (0: nothing
	// asked); OpenAI's rate-limit headers repeat it.
	Wait time.Duration
	// Rate is the model's buckets as the headers show them (nil: the
	// model declares no limits).
	Rate *Rates
	// Echo is what the answer repeats of its request.
	Echo Echo
}

// Echo is what an answer repeats of its request, as the real API does:
// the Responses API echoes max_output_tokens, store and the request's
// other settings (Raw).
type Echo struct {
	MaxOutput int  // 0: the request sent none (null)
	NoStore   bool // the request sent store: false
	// Raw is the request's own JSON values of the fields the answer
	// echoes as sent (instructions, tools, temperature, …), in a copy of
	// their own; a field it lacks is echoed as the API's default.
	Raw []RawValue
}

// RawValue is one field of a request, its JSON value as sent.
type RawValue struct {
	Key   string // the field's name, one of the wire's constants
	Value []byte
}

// MaxEchoBytes bounds the values one request's Echo.Raw holds together:
// 256 KiB. A field that does not fit is echoed as the API's default.
const MaxEchoBytes = 256 << 10

// RawOf is the value the request sent for key, nil when it sent none.
func (e *Echo) RawOf(key string) []byte {
	for i := range e.Raw {
		if e.Raw[i].Key == key {
			return e.Raw[i].Value
		}
	}
	return nil
}
