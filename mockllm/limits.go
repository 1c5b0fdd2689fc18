package mockllm

import (
	"fmt"
	"net/http"

	"github.com/faultbench/faultbench/scenario"
)

// unknownModel is the real API's answer to a model it does not serve.
func unknownModel(name string) *apiError {
	return &apiError{status: http.StatusNotFound, typ: "not_found_error", msg: "model: " + name, kind: kindNotFound}
}

// checkLimits applies a model's limits, which hold whatever the script
// says, worded as the real API words them. A zero limit is no limit.
//
// The order is the real API's: an output budget above the model's maximum
// first; then the input alone over the window; then input plus max_tokens
// over it.
func checkLimits(name string, m scenario.Model, input, maxTokens int) *apiError {
	if m.MaxOutput > 0 && maxTokens > m.MaxOutput {
		return invalidRequest(fmt.Sprintf(
			"max_tokens: %d > %d, which is the maximum allowed number of output tokens for %s",
			maxTokens, m.MaxOutput, name))
	}
	if m.ContextWindow <= 0 {
		return nil
	}
	if input > m.ContextWindow {
		return contextOverflow(fmt.Sprintf("prompt is too long: %d tokens > %d maximum", input, m.ContextWindow))
	}
	if input+maxTokens > m.ContextWindow {
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
