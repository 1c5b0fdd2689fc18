package harness

import (
	"context"
	"net/http"

	"google.golang.org/genai"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	oaoption "github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	anthropicprovider "github.com/faultbench/faultbench/recovery/anthropic"
	geminiprovider "github.com/faultbench/faultbench/recovery/gemini"
	openaiprovider "github.com/faultbench/faultbench/recovery/openai"
	"github.com/faultbench/faultbench/scenario"
)

// newProvider is the engine's transport for a run: the official SDK of the
// scenario's turn.wire (Anthropic's by default; OpenAI's Chat Completions
// or Responses API; Google's for Gemini; the bedrock option of
// Anthropic's for Bedrock), its retries off, on the run's HTTP client, naming the
// run's session and each request's purpose to the mock.
func newProvider(sc *scenario.Scenario, base, session string, hc *http.Client) recovery.Provider {
	switch sc.Turn.Wire {
	case scenario.WireGemini:
		return newGeminiProvider(sc, base, session, hc)
	case scenario.WireAzure:
		return newAzureProvider(sc, base, session, hc)
	case scenario.WireBedrock:
		return newBedrockProvider(sc, base, session, hc)
	case scenario.WireVertex:
		return newVertexProvider(sc, base, session, hc)
	case scenario.WireOpenRouter:
		// OpenRouter's base URL ends in api/v1/.
		return openaiprovider.New(
			oaoption.WithBaseURL(base+"api/v1/"),
			oaoption.WithAPIKey("faultbench"),
			oaoption.WithHTTPClient(hc),
			oaoption.WithHeader(mockllm.SessionHeader, session),
		).WithRequestOptions(func(r recovery.Request) []oaoption.RequestOption {
			return []oaoption.RequestOption{oaoption.WithHeader(mockllm.PurposeHeader, string(r.Purpose))}
		}).WithStream(sc.Turn.Stream)
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
		return p.WithStream(sc.Turn.Stream)
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

// newGeminiProvider is the Gemini transport of a run: genai's client on
// the run's HTTP client, the Gemini API backend whatever the environment
// says, the key given (so that GEMINI_API_KEY is not read).
func newGeminiProvider(sc *scenario.Scenario, base, session string, hc *http.Client) recovery.Provider {
	p, err := geminiprovider.New(context.Background(), genai.ClientConfig{
		APIKey:      "faultbench",
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  hc,
		HTTPOptions: genai.HTTPOptions{BaseURL: base, Headers: http.Header{mockllm.SessionHeader: {session}}},
	})
	if err != nil {
		return recovery.ProviderFunc(func(context.Context, recovery.Request) (*recovery.Response, error) { return nil, err })
	}
	return p.WithRequestHeaders(func(r recovery.Request) http.Header {
		return http.Header{mockllm.PurposeHeader: {string(r.Purpose)}}
	}).WithStream(sc.Turn.Stream)
}
