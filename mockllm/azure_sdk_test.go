package mockllm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/azure"
	oaoption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// openai-go's azure package, unmodified but for its endpoint (the mock's
// base URL, plain HTTP on loopback, which WithUnsafeAllowHTTP permits) and
// a dummy key, parses every answer and every error of the mock's Azure
// wire: plain and streamed, the gateway's 429 with its waits in
// milliseconds, a content filter's 400, an error inside a stream.
var _ = Describe("openai-go's azure package over loopback", func() {
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
		client = openai.NewClient(
			azure.WithEndpoint(base, "2024-10-21"), azure.WithAPIKey("dummy"), azure.WithUnsafeAllowHTTP(),
			oaoption.WithMaxRetries(0), oaoption.WithHTTPClient(hc), oaoption.WithHeader(mockllm.SessionHeader, "az"),
		)
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

	It("answers on the deployment's route, plain and streamed, and journals the wire", func() {
		serve()
		r, err := client.Chat.Completions.New(ctx, params("sonnet"))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Choices[0].Message.Content).To(Equal(tokens.Text(answerTokens)))
		Expect(r.Choices[0].FinishReason).To(Equal("stop"))
		Expect(r.Usage.PromptTokens).To(BeEquivalentTo(70))

		n, acc, err := stream("sonnet")
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeNumerically(">", 2))
		Expect(acc.Choices[0].Message.Content).To(Equal(tokens.Text(answerTokens)))
		Expect(acc.Choices[0].FinishReason).To(Equal("stop"))

		entries := srv.Entries(scName, "az")
		Expect(entries).To(HaveLen(2))
		for _, e := range entries {
			Expect(e).To(And(HaveField("Wire", "azure"), HaveField("Status", 200), HaveField("Model", "sonnet")))
		}
	})

	It("opens a stream with a chunk of no choices, carrying the prompt's filter results", func() {
		serve()
		s := client.Chat.Completions.NewStreaming(ctx, params("sonnet"))
		defer s.Close()
		Expect(s.Next()).To(BeTrue())
		Expect(s.Current().Choices).To(BeEmpty())
		Expect(s.Current().RawJSON()).To(ContainSubstring(`"prompt_filter_results"`))
	})

	It("words a scripted 429 as Azure's gateway, its wait in retry-after, retry-after-ms and x-ms-retry-after-ms", func() {
		serve(rule(scenario.When{Before: secs(20)}, status(429)), rule(scenario.When{}, ok))
		for _, streamed := range []bool{false, true} {
			var err error
			if streamed {
				_, _, err = stream("sonnet")
			} else {
				_, err = client.Chat.Completions.New(ctx, params("sonnet"))
			}
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(429))
			Expect(e.Code).To(Equal("429"))
			Expect(e.Message).To(HavePrefix("Requests to the ChatCompletions_Create Operation under Azure OpenAI API have exceeded call rate limit"))
			Expect(e.Message).To(ContainSubstring("Please retry after 20 seconds."))
			h := e.Response.Header
			Expect(h.Get("retry-after")).To(Equal("20"))
			Expect(h.Get("retry-after-ms")).To(Equal("20000"))
			Expect(h.Get("x-ms-retry-after-ms")).To(Equal("20000"))
			Expect(h.Get("x-ratelimit-remaining-requests")).To(Equal("0"))
		}
		Expect(srv.Entries(scName, "az")[0]).To(And(HaveField("Kind", "rate_limit"), HaveField("RetryAfterMS", HaveValue(BeEquivalentTo(20000)))))
	})

	It("words a scripted content_filter as Azure's content filter, with its innererror", func() {
		serve(rule(scenario.When{}, scenario.Respond{Status: 400, Type: "content_filter"}))
		for _, streamed := range []bool{false, true} {
			var err error
			if streamed {
				_, _, err = stream("sonnet")
			} else {
				_, err = client.Chat.Completions.New(ctx, params("sonnet"))
			}
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(400))
			Expect(e.Code).To(Equal("content_filter"))
			Expect(e.Param).To(Equal("prompt"))
			Expect(e.Message).To(ContainSubstring("Azure OpenAI's content management policy"))
			Expect(e.RawJSON()).To(ContainSubstring(`"ResponsibleAIPolicyViolation"`))
		}
	})

	It("ends a stream with an error object the SDK reports", func() {
		serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 3}}})
		n, _, err := stream("sonnet")
		Expect(n).To(Equal(3))
		var se *ssestream.StreamError
		Expect(errors.As(err, &se)).To(BeTrue(), "%v", err)
		Expect(se.Message).To(ContainSubstring("overloaded"))
	})

	It("answers a deployment the scenario does not serve with DeploymentNotFound", func() {
		serve()
		e := apiError(func() error { _, err := client.Chat.Completions.New(ctx, params("gpt-nope")); return err }())
		Expect(e.StatusCode).To(Equal(404))
		Expect(e.Code).To(Equal("DeploymentNotFound"))
		Expect(e.Message).To(ContainSubstring("sonnet"))
	})

	It("refuses a request without a key, and a deployment path without api-version, as Azure does", func() {
		serve()
		resp, err := post(ctx, hc, base+"openai/deployments/sonnet/chat/completions?api-version=2024-10-21", "az", ask("sonnet", 100, 10))
		Expect(err).NotTo(HaveOccurred())
		body, _ := readAll(resp)
		Expect(resp.StatusCode).To(Equal(401))
		Expect(string(body)).To(ContainSubstring(`{"error":{"code":"401","message":"Access denied due to invalid subscription key`))

		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"openai/deployments/sonnet/chat/completions", strings.NewReader(ask("sonnet", 100, 10)))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("api-key", "dummy")
		resp, err = hc.Do(req)
		Expect(err).NotTo(HaveOccurred())
		body, _ = readAll(resp)
		Expect(resp.StatusCode).To(Equal(404))
		Expect(string(body)).To(Equal(`{"error":{"code":"404","message":"Resource not found"}}`))
	})

	It("serves the v1 path, the model named by the body", func() {
		serve()
		v1 := openai.NewClient(
			oaoption.WithBaseURL(base+"openai/v1/"), oaoption.WithAPIKey("dummy"), oaoption.WithMaxRetries(0),
			oaoption.WithHTTPClient(hc), oaoption.WithHeader(mockllm.SessionHeader, "v1"),
		)
		r, err := v1.Chat.Completions.New(ctx, params("haiku"))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Model).To(Equal("haiku"))
		Expect(srv.Entries(scName, "v1")[0]).To(HaveField("Wire", "azure"))
	})

	It("serves a session named in the endpoint's path, as grade's AZURE_OPENAI_ENDPOINT names it", func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		ep, hc := live(srv)
		c := openai.NewClient(
			azure.WithEndpoint(strings.TrimSuffix(ep.SessionURL(scName, "grade"), "/"), "2024-10-21"), azure.WithAPIKey("dummy"),
			azure.WithUnsafeAllowHTTP(), oaoption.WithMaxRetries(0), oaoption.WithHTTPClient(hc),
		)
		_, err := c.Chat.Completions.New(ctx, params("sonnet"))
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Entries(scName, "grade")).To(ConsistOf(HaveField("Wire", "azure")))
	})
})
