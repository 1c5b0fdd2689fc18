package bedrock

import (
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The routes under a scenario's base URL: InvokeModel and
// InvokeModelWithResponseStream.
const (
	modelPrefix  = "model/"
	invoke       = "/invoke"
	invokeStream = "/invoke-with-response-stream"
)

// maxModelID bounds a model ID as Bedrock does: 2048 characters (an
// inference profile's ARN among them).
const maxModelID = 2048

// Route splits /<scenario>/model/{modelId}/invoke (and
// invoke-with-response-stream) into the scenario's name and the model,
// which the path names and the body does not; the stream route streams.
// The model ID is the path's decoded text, so an ARN whose slashes the
// client escaped is one ID. A path that names no scenario
// (/model/{modelId}/invoke, as anthropic-sdk-go's bedrock option sends
// it) is not the wire's: the server routes it to its default scenario
// (mockllm.WithDefaultScenario) and asks again.
func (Wire) Route(path, _ string) (string, wire.Route, bool) {
	name, rest, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !ok || name == "" || !strings.HasPrefix(path, "/") {
		return "", wire.Route{}, false
	}
	rest, ok = strings.CutPrefix(rest, modelPrefix)
	if !ok {
		return "", wire.Route{}, false
	}
	stream := false
	model, ok := strings.CutSuffix(rest, invokeStream)
	if ok {
		stream = true
	} else if model, ok = strings.CutSuffix(rest, invoke); !ok {
		return "", wire.Route{}, false
	}
	if model == "" || len(model) > maxModelID {
		return "", wire.Route{}, false
	}
	return name, wire.Route{Model: model, Stream: stream}, true
}

// CountBody is never asked for: the wire routes no count.
func (Wire) CountBody(b []byte, _ int) []byte { return b }
