package wire

import (
	"encoding/json"
	"strings"

	"github.com/faultbench/faultbench/internal/tokens"
)

// Request is what the mock reads of a request body, on any wire. Texts
// are measured, not kept: only the model name is copied out of the body.
type Request struct {
	Model     string
	MaxTokens int // 0 when an OpenAI request sets none
	Stream    bool
	// Array is a stream asked for as one JSON array rather than as
	// server-sent events (Gemini's streamGenerateContent without
	// ?alt=sse).
	Array        bool
	IncludeUsage bool // OpenAI's stream_options.include_usage
	// StreamOptions is whether an OpenAI request sent stream_options,
	// which only goes with stream.
	StreamOptions bool
	MaxTokensKey  string // the name OpenAI's output budget came under
	HasModel      bool
	HasMaxTokens  bool
	HasMessages   bool
	Messages      int
	// SystemTokens counts the system prompt (OpenAI: the system and
	// developer messages), MessageTokens the rest.
	SystemTokens  int
	MessageTokens int
	// ToolTokens counts the tool definitions (see ToolTokens).
	ToolTokens int
	// CountOnly is a count_tokens request, which has no max_tokens.
	CountOnly bool
	// SystemRoles lets a message inside messages have role "system", as
	// the Messages API does under a beta the request's headers name
	// (HeaderReader).
	SystemRoles bool
	// NoStore is a Responses request's store: false, which its answer
	// echoes (the API's default is true).
	NoStore bool
	// KeepLast asks the decoder to keep the raw JSON content of the last
	// message in Last (any wire): a scenario with a when.contains rule
	// reads it.
	KeepLast bool
	Last     []byte
	// Mem is the session's memo (memo.go), nil when it keeps none; Memo
	// is what the decoder learnt for the next body, when Mem wants one.
	Mem  *Memory
	Memo *BodyMemo
	// Echoed is what the answer echoes of the request's fields as sent
	// (Echo.Raw), bounded by MaxEchoBytes.
	Echoed []RawValue
	// Cache is the request's prompt prefix as a cache keys it
	// (prefix.go), when Cache.On asks the decoder to gather it.
	Cache Prefix
}

// Echo is what the answer to q repeats of it (Responses: store,
// max_output_tokens and the settings it sent).
func (q *Request) Echo() Echo {
	e := Echo{NoStore: q.NoStore, Raw: q.Echoed}
	if q.HasMaxTokens {
		e.MaxOutput = q.MaxTokens
	}
	return e
}

// InputTokens is the request's input under the token rule: the sum over
// every text it carries, with no per-message overhead.
func (q *Request) InputTokens() int { return q.SystemTokens + q.MessageTokens + q.ToolTokens }

// LastContains reports whether the last message's content has text in
// one of its strings (a plain content string, a text block's text, a
// tool_result's content).
func (q *Request) LastContains(text string) bool {
	if len(q.Last) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(q.Last, &v) != nil {
		return false
	}
	return anyContains(v, text)
}

func anyContains(v any, text string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, text)
	case []any:
		for _, e := range v {
			if anyContains(e, text) {
				return true
			}
		}
	case map[string]any:
		for _, k := range []string{"text", "content"} {
			if e, ok := v[k]; ok && anyContains(e, text) {
				return true
			}
		}
	}
	return false
}

// CountBytes is tokens.Count for a text of n bytes. The decoders measure
// texts without turning them into strings, so they need the rule by
// length.
func CountBytes(n int) int {
	return (n + tokens.BytesPerToken - 1) / tokens.BytesPerToken
}
