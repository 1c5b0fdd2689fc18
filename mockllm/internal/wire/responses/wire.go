package responses

import (
	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openai"
	"github.com/faultbench/faultbench/scenario"
)

// Wire is OpenAI's Responses API: POST <base>v1/responses.
type Wire struct{ openai.Base }

var _ wire.Wire = Wire{}

// Spec names the wire "openai-responses"; its answers are resp_ and its
// tool calls call_.
func (Wire) Spec() wire.Spec {
	return wire.Spec{Name: "openai-responses", Path: "/v1/responses", AnswerTag: 'p', AnswerPrefix: "resp_", ToolPrefix: "call_", CacheAuto: true}
}

// Limits words a model's limits as the Responses API does: an output
// budget above max_output; the input alone over the window. It takes an
// output budget past the window, and cuts the answer short (incomplete,
// max_output_tokens).
func (Wire) Limits(_ string, m scenario.Model, q *wire.Request) *wire.Error {
	if err := openai.MaxOutput(m, q); err != nil {
		return err
	}
	if m.ContextWindow > 0 && q.InputTokens() > m.ContextWindow {
		e := openai.Overflow("Your input exceeds the context window of this model. Please adjust your input and try again.")
		e.Param = "input"
		return e
	}
	return nil
}

// StopReason is the status, or max_output_tokens for a cut answer.
func (Wire) StopReason(a *wire.Answer) string { return responseStopReason(a) }

// Body appends the error object or the response.
func (Wire) Body(b []byte, r *wire.Reply) []byte {
	if r.Err != nil {
		return openai.AppendError(b, r.Err)
	}
	return appendResponse(r, b, responseStatus(&r.Ans), true, jsonscan.AppendString)
}

// Broken appends a response.in_progress event cut short.
func (Wire) Broken(ev *wire.Events, _ *wire.Reply) {
	b := ev.Begin("response.in_progress")
	ev.End(append(b, `{"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_`...))
}
