package anthropic

import (
	"net/http"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// Wire is the Anthropic Messages API: POST <base>v1/messages, and
// v1/messages/count_tokens.
type Wire struct{}

var (
	_ wire.Wire    = Wire{}
	_ wire.Counter = Wire{}
)

// Spec names the wire "anthropic"; its answers are msg_ and its tool
// calls toolu_.
func (Wire) Spec() wire.Spec {
	return wire.Spec{Name: "anthropic", Path: "/v1/messages", AnswerTag: 'm', AnswerPrefix: "msg_", ToolPrefix: "toolu_"}
}

// CountPath is Anthropic's token counting endpoint.
func (Wire) CountPath() string { return "/v1/messages/count_tokens" }

// StopReason is the answer's stop_reason as sent.
func (Wire) StopReason(a *wire.Answer) string { return a.Stop }

// Body appends the error envelope or the message.
func (Wire) Body(b []byte, r *wire.Reply) []byte {
	if r.Err != nil {
		return appendError(b, r.Err, r.RequestID)
	}
	return appendAnswer(b, &r.Ans)
}

// Broken appends a content_block_start cut short.
func (Wire) Broken(ev *wire.Events, _ *wire.Reply) {
	b := ev.Begin("content_block_start")
	ev.End(append(b, `{"type":"content_block_start","index":0,"content_block":{"type":"te`...))
}

// Failed appends an SSE error event.
func (Wire) Failed(ev *wire.Events, r *wire.Reply, e *wire.Error) {
	ev.End(appendError(ev.Begin("error"), e, r.RequestID))
}

var shouldRetryTrue = []string{"true"}

// Headers sets request-id, x-should-retry on a 529, and the
// anthropic-ratelimit-* headers of a model with limits.
func (Wire) Headers(h http.Header, r *wire.Reply) {
	h["Request-Id"] = []string{r.RequestID}
	if r.Err != nil && r.Err.Status == 529 {
		h["X-Should-Retry"] = shouldRetryTrue
	}
	if r.Rate != nil {
		setRates(h, r.Rate)
	}
}
