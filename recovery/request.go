package recovery

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Purpose says why a request is sent: for the turn itself, or as a repair
// call (a summarisation for compaction). Providers may pass it on, for
// example as a header, so that a server can tell the two apart.
type Purpose string

// The purposes of a request.
const (
	PurposeTurn   Purpose = "turn"
	PurposeRepair Purpose = "repair"
)

// Message is one message of the conversation: its text, and in an agent
// turn the tool calls an assistant message made (tool_use blocks) or the
// results a user message hands back (tool_result blocks). An empty Text
// with blocks sends the blocks alone.
type Message struct {
	Role        string // "user" or "assistant"
	Text        string
	ToolCalls   []ToolCall   // assistant only
	ToolResults []ToolResult // user only; sent before the text
	// Cache marks a prompt-cache breakpoint at the message's last block,
	// with that lifetime (0: none). The engine leaves it 0; a provider
	// sets it from Request.Cache (PromptCache.Marked).
	Cache time.Duration
}

// ToolCall is one tool_use block: the model asks for tool Name with the
// JSON arguments Input.
type ToolCall struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// ToolResult is one tool_result block: what the tool call ToolUseID gave
// back. A tool that failed returns its error as Content with IsError set,
// so that the model can read it and change course.
type ToolResult struct {
	ToolUseID string
	Content   string
	IsError   bool
}

// Request is what the engine asks a Provider to send.
type Request struct {
	Model     string
	MaxTokens int
	System    string
	Messages  []Message
	Purpose   Purpose
	// Background marks a request the caller can do without (a title, a
	// classifier, a summary nobody waits for): a strategy with
	// ShedBackground drops it on the first overload instead of adding to
	// the load. Providers do not send it.
	Background bool
	// Cache is the strategy's prompt cache marks (PromptCache), which a
	// provider whose API wants them sends.
	Cache PromptCache
}

// Clone returns a copy whose Messages can be changed without touching r's.
func (r Request) Clone() Request {
	r.Messages = append([]Message(nil), r.Messages...)
	r.Cache.Breakpoints = append([]Breakpoint(nil), r.Cache.Breakpoints...)
	return r
}

// Response is a model's answer (HTTP 200).
type Response struct {
	ID           string
	Model        string
	Text         string
	ToolCalls    []ToolCall // the answer's tool_use blocks, in order
	StopReason   string     // end_turn, max_tokens, stop_sequence, tool_use, refusal, ...
	InputTokens  int
	OutputTokens int
	// CacheReadTokens is the input the provider read from its prompt
	// cache; CacheWrite5mTokens and CacheWrite1hTokens what it wrote
	// there, by lifetime (docs/cost.md). InputTokens is what the API
	// reports as input: on Anthropic's wire the rest, on OpenAI's the
	// whole input, cached tokens included.
	CacheReadTokens    int
	CacheWrite5mTokens int
	CacheWrite1hTokens int
	Header             http.Header
}

// Provider sends one request and returns the answer. An answer with an
// error status comes back as an *APIError; a transport failure as the
// underlying error, wrapped with %w so that its cause chain survives.
// A Provider must not retry: the engine is the one retry loop.
type Provider interface {
	Send(ctx context.Context, req Request) (*Response, error)
}

// ProviderFunc adapts a function to Provider.
type ProviderFunc func(ctx context.Context, req Request) (*Response, error)

// Send calls f.
func (f ProviderFunc) Send(ctx context.Context, req Request) (*Response, error) { return f(ctx, req) }

var _ Provider = ProviderFunc(nil)

// APIError is an error status from the server, in a provider-neutral shape.
type APIError struct {
	StatusCode int
	Type       string // error.type: rate_limit_error, overloaded_error, invalid_request_error, ...
	Code       string // error.code where the API has one (OpenAI: context_length_exceeded, insufficient_quota)
	Message    string
	RequestID  string
	Header     http.Header
	// RetryDelay is the wait the error body itself asks for: Google's
	// google.rpc.RetryInfo retryDelay (or, when the body has no details,
	// the "Please retry in 14.65s" of its message). 0 when it names none;
	// headers are in Header.
	RetryDelay time.Duration
	// QuotaIDs are the quotaId of each violation of a
	// google.rpc.QuotaFailure detail ("GenerateRequestsPerDayPerProjectPerModel"),
	// in the order the body lists them.
	QuotaIDs []string
	Err      error // the SDK's own error, for callers that want it
}

func (e *APIError) Error() string {
	kind := e.Type
	if e.Code != "" {
		kind += "/" + e.Code
	}
	return fmt.Sprintf("api error %d %s: %s", e.StatusCode, kind, e.Message)
}

// Unwrap returns the SDK's error.
func (e *APIError) Unwrap() error { return e.Err }
