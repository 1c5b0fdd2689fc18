package mockllm

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/faultbench/faultbench/scenario"
)

// unknownModel is the real API's answer to a model it does not serve, in
// its shape (Anthropic: 404 not_found_error; OpenAI: 404
// invalid_request_error with code model_not_found), its message followed by
// the models the scenario serves, so that a user learns what to send.
func unknownModel(wr wire, name string, served []string) *apiError {
	name = clipEntry(name) // a 30 MB model name is not sent back whole
	list := " The scenario serves: " + strings.Join(served, ", ") + " (or alias a name: faultbench serve --model-alias)."
	if wr.openai() {
		return &apiError{
			status: http.StatusNotFound, typ: "invalid_request_error", code: "model_not_found", kind: kindNotFound,
			msg: "The model `" + name + "` does not exist or you do not have access to it." + list,
		}
	}
	return &apiError{status: http.StatusNotFound, typ: "not_found_error", msg: "model: " + name + "." + list, kind: kindNotFound}
}

// checkLimits applies a model's limits, which hold whatever the script
// says, worded as the real API of the wire words them. A zero limit is no
// limit. An OpenAI request without max_tokens asks for no output budget:
// only its input is checked against the window.
//
// The order is the real API's: an output budget above the model's maximum
// first; then the input alone over the window; then input plus max_tokens
// over it.
func checkLimits(wr wire, name string, m scenario.Model, q *request) *apiError {
	input, maxTokens := q.inputTokens(), q.maxTokens
	if m.MaxOutput > 0 && maxTokens > m.MaxOutput {
		if wr.openai() {
			e := invalidRequest(fmt.Sprintf(
				"%s is too large: %d. This model supports at most %d completion tokens, whereas you provided %d.",
				q.maxTokensKey, maxTokens, m.MaxOutput, maxTokens))
			e.param = q.maxTokensKey
			return e
		}
		return invalidRequest(fmt.Sprintf(
			"max_tokens: %d > %d, which is the maximum allowed number of output tokens for %s",
			maxTokens, m.MaxOutput, name))
	}
	if m.ContextWindow <= 0 {
		return nil
	}
	switch {
	case input > m.ContextWindow && wr == responsesWire:
		e := openaiOverflow("Your input exceeds the context window of this model. Please adjust your input and try again.")
		e.param = "input"
		return e
	case wr == responsesWire:
		// The Responses API takes an output budget past the window, and
		// cuts the answer short (incomplete, max_output_tokens).
		return nil
	case input > m.ContextWindow && wr == openaiWire:
		return openaiOverflow(fmt.Sprintf(
			"This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. "+
				"Please reduce the length of the messages.", m.ContextWindow, input))
	case input > m.ContextWindow:
		return contextOverflow(fmt.Sprintf("prompt is too long: %d tokens > %d maximum", input, m.ContextWindow))
	case input+maxTokens > m.ContextWindow && wr == openaiWire:
		return openaiOverflow(fmt.Sprintf(
			"This model's maximum context length is %d tokens. However, you requested %d tokens "+
				"(%d in the messages, %d in the completion). Please reduce the length of the messages or completion.",
			m.ContextWindow, input+maxTokens, input, maxTokens))
	case input+maxTokens > m.ContextWindow:
		return contextOverflow(fmt.Sprintf(
			"input length and `max_tokens` exceed context limit: %d + %d > %d, decrease input length or `max_tokens` and try again",
			input, maxTokens, m.ContextWindow))
	}
	return nil
}

func contextOverflow(msg string) *apiError {
	e := invalidRequest(msg)
	e.kind = kindContextOverflow
	return e
}

func openaiOverflow(msg string) *apiError {
	e := contextOverflow(msg)
	e.param, e.code = "messages", "context_length_exceeded"
	return e
}
