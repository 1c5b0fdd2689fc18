package mockllm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"
	oaoption "github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// openai-go, unmodified but for OpenRouter's base URL (<base>api/v1/) and
// a dummy key, against the mock's OpenRouter wire: answers plain and
// streamed; OpenRouter's numeric error codes and metadata; a 402 that
// names its limit_source; an error at HTTP 200, which the SDK does not
// report as an error at all; an error chunk inside a stream.
var _ = Describe("openai-go against the OpenRouter routes", func() {
	var (
		srv    *mockllm.Server
		client openai.Client
		hc     *http.Client
		base   string
		ctx    context.Context
	)
	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual())
		var ep *mockllm.Endpoint
		ep, hc = live(srv)
		base = ep.BaseURL(scName)
		client = openai.NewClient(oaoption.WithBaseURL(base+"api/v1/"), oaoption.WithAPIKey("dummy"), oaoption.WithMaxRetries(0),
			oaoption.WithHTTPClient(hc), oaoption.WithHeader(mockllm.SessionHeader, "or"))
	}
	params := func(model string) openai.ChatCompletionNewParams {
		return openai.ChatCompletionNewParams{
			Model:               model,
			MaxCompletionTokens: openai.Int(400),
			Messages:            []openai.ChatCompletionMessageParamUnion{openai.UserMessage(tokens.Text(70))},
		}
	}
	apiError := func(err error) *openai.Error {
		var e *openai.Error
		ExpectWithOffset(1, errors.As(err, &e)).To(BeTrue(), "%v", err)
		return e
	}
	stream := func(model string) (int, openai.ChatCompletionAccumulator, error) {
		s := client.Chat.Completions.NewStreaming(ctx, params(model))
		defer s.Close()
		var acc openai.ChatCompletionAccumulator
		n := 0
		for s.Next() {
			acc.AddChunk(s.Current())
			n++
		}
		return n, acc, s.Err()
	}
	BeforeEach(func() { ctx = context.Background() })

	It("answers on api/v1/chat/completions, plain and streamed, and journals the wire", func() {
		serve()
		r, err := client.Chat.Completions.New(ctx, params("sonnet"))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Choices[0].Message.Content).To(Equal(tokens.Text(answerTokens)))
		Expect(r.ID).To(HavePrefix("gen-"))
		_, acc, err := stream("sonnet")
		Expect(err).NotTo(HaveOccurred())
		Expect(acc.Choices[0].Message.Content).To(Equal(tokens.Text(answerTokens)))
		for _, e := range srv.Entries(scName, "or") {
			Expect(e).To(And(HaveField("Wire", "openrouter"), HaveField("Status", 200)))
		}
	})

	It("words a 402 with its limit_source, which no wait fixes", func() {
		serve(rule(scenario.When{Attempt: 1}, status(402)), rule(scenario.When{}, scenario.Respond{Status: 402, Type: "openrouter_key_limit"}))
		e := apiError(func() error { _, err := client.Chat.Completions.New(ctx, params("sonnet")); return err }())
		Expect(e.StatusCode).To(Equal(402))
		Expect(e.Message).To(HavePrefix("Insufficient credits."))
		Expect(e.RawJSON()).To(ContainSubstring(`"code":402,`))
		Expect(e.RawJSON()).To(ContainSubstring(`"metadata":{"limit_source":"openrouter_credits"}`))
		_, _, err := stream("sonnet")
		e = apiError(err)
		Expect(e.StatusCode).To(Equal(402))
		Expect(e.RawJSON()).To(ContainSubstring(`"limit_source":"openrouter_key_limit"`))
		Expect(srv.Entries(scName, "or")[0]).To(HaveField("Kind", "quota_exhausted"))
	})

	It("words a provider's error with its name and raw body, at the rule's status", func() {
		serve(rule(scenario.When{}, scenario.Respond{Status: 429, Type: "provider_error"}))
		e := apiError(func() error { _, err := client.Chat.Completions.New(ctx, params("sonnet")); return err }())
		Expect(e.StatusCode).To(Equal(429))
		Expect(e.Message).To(Equal("Provider returned error"))
		Expect(e.RawJSON()).To(ContainSubstring(`"provider_name":"Anthropic"`))
		Expect(e.RawJSON()).To(ContainSubstring(`overloaded_error`))
	})

	It("answers an in_body error with HTTP 200, which openai-go takes for a completion with no choices", func() {
		serve(rule(scenario.When{}, scenario.Respond{Status: 502, Type: "in_body"}))
		r, err := client.Chat.Completions.New(ctx, params("sonnet"))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Choices).To(BeEmpty())
		Expect(r.RawJSON()).To(HavePrefix(`{"error":{"code":502,"message":"Provider returned error"`))
		Expect(srv.Entries(scName, "or")[0]).To(And(HaveField("Status", 200), HaveField("Kind", "server")))
	})

	It("ends a stream with an error chunk, finish_reason error, which openai-go reports", func() {
		serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 3}}})
		n, _, err := stream("sonnet")
		Expect(n).To(Equal(3))
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring(`{"code":529,"message":"Overloaded"}`))
	})

	It("refuses a request without a key, and a models list of the wrong type, as OpenRouter does", func() {
		serve()
		resp, err := hc.Post(base+"api/v1/chat/completions", "application/json", strings.NewReader(ask("sonnet", 100, 10)))
		Expect(err).NotTo(HaveOccurred())
		b, _ := readAll(resp)
		Expect(resp.StatusCode).To(Equal(401))
		Expect(string(b)).To(Equal(`{"error":{"code":401,"message":"No auth credentials found"},"user_id":"user_faultbench"}`))

		_, err = client.Chat.Completions.New(ctx, params("sonnet"), oaoption.WithJSONSet("models", "sonnet"))
		e := apiError(err)
		Expect(e.StatusCode).To(Equal(400))
		Expect(e.Message).To(Equal("models: Expected array"))
		_, err = client.Chat.Completions.New(ctx, params("sonnet"), oaoption.WithJSONSet("models", []string{"sonnet", "haiku"}),
			oaoption.WithJSONSet("provider", map[string]any{"order": []string{"anthropic"}}))
		Expect(err).NotTo(HaveOccurred())
	})
})
