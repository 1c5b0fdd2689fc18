package harness

import (
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	oaoption "github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	anthropicprovider "github.com/faultbench/faultbench/recovery/anthropic"
	openaiprovider "github.com/faultbench/faultbench/recovery/openai"
	"github.com/faultbench/faultbench/scenario"
)

// newProvider is the engine's transport for a run: the official SDK of the
// scenario's turn.wire (Anthropic's by default; OpenAI's Chat Completions
// or Responses API), its retries off, on the run's HTTP client, naming the
// run's session and each request's purpose to the mock.
func newProvider(sc *scenario.Scenario, base, session string, hc *http.Client) recovery.Provider {
	switch sc.Turn.Wire {
	case scenario.WireOpenAI, scenario.WireOpenAIResponses:
		p := openaiprovider.New(
			oaoption.WithBaseURL(base+"v1/"),
			oaoption.WithAPIKey("faultbench"),
			oaoption.WithHTTPClient(hc),
			oaoption.WithHeader(mockllm.SessionHeader, session),
		).WithRequestOptions(func(r recovery.Request) []oaoption.RequestOption {
			return []oaoption.RequestOption{oaoption.WithHeader(mockllm.PurposeHeader, string(r.Purpose))}
		})
		if sc.Turn.Wire == scenario.WireOpenAIResponses {
			return p.WithResponses()
		}
		return p
	}
	return anthropicprovider.New(
		option.WithBaseURL(base),
		option.WithAPIKey("faultbench"),
		option.WithHTTPClient(hc),
		option.WithHeader(mockllm.SessionHeader, session),
	).WithRequestOptions(func(r recovery.Request) []option.RequestOption {
		return []option.RequestOption{option.WithHeader(mockllm.PurposeHeader, string(r.Purpose))}
	}).WithStream(sc.Turn.Stream)
}
