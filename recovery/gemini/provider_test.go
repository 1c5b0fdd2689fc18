package gemini_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"syscall"
	"time"

	"github.com/h2non/gock"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"google.golang.org/genai"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/gemini"
)

const baseURL = "https://gemini.api.test/"

// Bodies as the Gemini API sends them.
const (
	answerBody = `{"candidates":[{"content":{"parts":[{"text":"Bonjour."}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":3,"totalTokenCount":15},"modelVersion":"gemini-test","responseId":"resp-1"}`
	cutBody    = `{"candidates":[{"content":{"parts":[{"text":"The answer is"}],"role":"model"},"finishReason":"MAX_TOKENS","index":0}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":4,"totalTokenCount":16},"modelVersion":"gemini-test","responseId":"resp-2"}`
	callBody   = `{"candidates":[{"content":{"parts":[{"functionCall":{"id":"call-1","name":"read_file","args":{"path":"a.go"}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":5,"totalTokenCount":17},"modelVersion":"gemini-test","responseId":"resp-3"}`
	safetyBody = `{"candidates":[{"finishReason":"SAFETY","index":0}],"usageMetadata":{"promptTokenCount":12,"totalTokenCount":12},"modelVersion":"gemini-test"}`
	quotaBody  = `{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. Please retry in 14.654s.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier","quotaDimensions":{"location":"global","model":"gemini-test"},"quotaValue":"10"}]},{"@type":"type.googleapis.com/google.rpc.Help","links":[{"description":"Learn more about Gemini API quotas","url":"https://ai.google.dev/gemini-api/docs/rate-limits"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"14s"}]}}`
	dailyBody  = `{"error":{"code":429,"message":"You exceeded your current quota.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3600s"}]}}`
	bareQuota  = `{"error":{"code":429,"message":"Resource has been exhausted. Please retry in 2.5s.","status":"RESOURCE_EXHAUSTED"}}`
	unavail    = `{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`
	tooLong    = `{"error":{"code":400,"message":"The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`
	denied     = `{"error":{"code":403,"message":"Method doesn't allow unregistered callers.","status":"PERMISSION_DENIED"}}`
	notFound   = `{"error":{"code":404,"message":"models/nope is not found for API version v1beta, or is not supported for generateContent.","status":"NOT_FOUND"}}`
)

func turn() recovery.Request {
	return recovery.Request{
		Model: "gemini-test", MaxTokens: 1024, System: "Be brief.",
		Messages: []recovery.Message{
			{Role: "user", Text: "Hi"},
			{Role: "assistant", Text: "Hello."},
			{Role: "user", Text: "Say hello in French."},
		},
		Purpose: recovery.PurposeTurn,
	}
}

func generate() *gock.Request {
	return gock.New(baseURL).Post("/v1beta/models/gemini-test:generateContent")
}

// body captures the request body a mock matched.
func body(into *[]byte) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		b, err := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		*into = b
		return true, err
	}
}

func newProvider(hc *http.Client) *gemini.Provider {
	p, err := gemini.New(context.Background(), genai.ClientConfig{
		APIKey: "test-key", HTTPClient: hc, HTTPOptions: genai.HTTPOptions{BaseURL: baseURL},
	})
	Expect(err).NotTo(HaveOccurred())
	return p
}

var _ = Describe("Provider", func() {
	var (
		httpClient *http.Client
		provider   *gemini.Provider
		ctx        context.Context
	)
	BeforeEach(func() {
		ctx = context.Background()
		httpClient = &http.Client{}
		gock.InterceptClient(httpClient)
		gock.DisableNetworking()
		DeferCleanup(gock.OffAll)
		provider = newProvider(httpClient)
	})

	It("sends one generateContent call with the system prompt, the contents and the budget", func() {
		var sent []byte
		generate().MatchHeader("x-goog-api-key", "test-key").AddMatcher(body(&sent)).Reply(200).BodyString(answerBody)
		resp, err := provider.Send(ctx, turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(gock.IsDone()).To(BeTrue())
		Expect(resp.Text).To(Equal("Bonjour."))
		Expect(resp.StopReason).To(Equal("end_turn"))
		Expect(resp.InputTokens).To(Equal(12))
		Expect(resp.OutputTokens).To(Equal(3))
		Expect(resp.ID).To(Equal("resp-1"))
		Expect(resp.Model).To(Equal("gemini-test"))
		Expect(sent).To(MatchJSON(`{
			"contents":[{"parts":[{"text":"Hi"}],"role":"user"},{"parts":[{"text":"Hello."}],"role":"model"},{"parts":[{"text":"Say hello in French."}],"role":"user"}],
			"generationConfig":{"maxOutputTokens":1024},
			"systemInstruction":{"parts":[{"text":"Be brief."}],"role":"user"}}`))
	})

	It("never retries and never continues on its own", func() {
		generate().Times(1).Reply(503).BodyString(unavail)
		_, err := provider.Send(ctx, turn())
		Expect(err).To(HaveOccurred())
		Expect(gock.IsDone()).To(BeTrue())
		Expect(gock.HasUnmatchedRequest()).To(BeFalse())
	})

	It("adds each request's headers", func() {
		p := provider.WithRequestHeaders(func(r recovery.Request) http.Header {
			return http.Header{"X-Faultbench-Purpose": {string(r.Purpose)}}
		})
		generate().MatchHeader("X-Faultbench-Purpose", "turn").Reply(200).BodyString(answerBody)
		_, err := p.Send(ctx, turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(gock.IsDone()).To(BeTrue())
	})

	It("maps tool calls and results both ways", func() {
		var sent []byte
		generate().AddMatcher(body(&sent)).Reply(200).BodyString(callBody)
		req := turn()
		req.Messages = append(req.Messages,
			recovery.Message{Role: "assistant", ToolCalls: []recovery.ToolCall{{ID: "c0", Name: "ls", Input: json.RawMessage(`{"dir":"."}`)}}},
			recovery.Message{Role: "user", ToolResults: []recovery.ToolResult{{ToolUseID: "c0", Content: "a.go"}}},
		)
		resp, err := provider.Send(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StopReason).To(Equal("tool_use"))
		Expect(resp.ToolCalls).To(HaveLen(1))
		Expect(resp.ToolCalls[0].ID).To(Equal("call-1"))
		Expect(resp.ToolCalls[0].Name).To(Equal("read_file"))
		Expect(resp.ToolCalls[0].Input).To(MatchJSON(`{"path":"a.go"}`))
		var got struct{ Contents []json.RawMessage }
		Expect(json.Unmarshal(sent, &got)).To(Succeed())
		Expect(got.Contents[3]).To(MatchJSON(`{"parts":[{"functionCall":{"id":"c0","name":"ls","args":{"dir":"."}}}],"role":"model"}`))
		Expect(got.Contents[4]).To(MatchJSON(`{"parts":[{"functionResponse":{"id":"c0","name":"ls","response":{"output":"a.go"}}}],"role":"user"}`))
	})

	It("sends byte for byte what the SDK encodes itself", func() {
		var spliced, own []byte
		generate().AddMatcher(body(&spliced)).Reply(200).BodyString(answerBody)
		req := turn()
		req.Messages = append(req.Messages,
			recovery.Message{Role: "assistant", Text: "<b>&</b>", ToolCalls: []recovery.ToolCall{{ID: "c0", Name: "ls", Input: json.RawMessage(`{"dir":".","n":3}`)}}},
			recovery.Message{Role: "user", Text: "more", ToolResults: []recovery.ToolResult{{ToolUseID: "c0", Content: "a.go", IsError: true}}},
		)
		_, err := provider.Send(ctx, req)
		Expect(err).NotTo(HaveOccurred())

		gock.InterceptClient(httpClient)
		gock.New(baseURL).Post("/v1beta/models/gemini-test:generateContent").AddMatcher(body(&own)).Reply(200).BodyString(answerBody)
		client, err := genai.NewClient(ctx, &genai.ClientConfig{APIKey: "k", Backend: genai.BackendGeminiAPI, HTTPClient: httpClient, HTTPOptions: genai.HTTPOptions{BaseURL: baseURL}})
		Expect(err).NotTo(HaveOccurred())
		contents := []*genai.Content{
			{Role: "user", Parts: []*genai.Part{{Text: "Hi"}}},
			{Role: "model", Parts: []*genai.Part{{Text: "Hello."}}},
			{Role: "user", Parts: []*genai.Part{{Text: "Say hello in French."}}},
			{Role: "model", Parts: []*genai.Part{{Text: "<b>&</b>"}, {FunctionCall: &genai.FunctionCall{ID: "c0", Name: "ls", Args: map[string]any{"dir": ".", "n": 3}}}}},
			{Role: "user", Parts: []*genai.Part{{FunctionResponse: &genai.FunctionResponse{ID: "c0", Name: "ls", Response: map[string]any{"error": "a.go"}}}, {Text: "more"}}},
		}
		_, err = client.Models.GenerateContent(ctx, "gemini-test", contents, &genai.GenerateContentConfig{
			MaxOutputTokens: 1024, AutomaticContinuation: genai.Ptr(false),
			SystemInstruction: &genai.Content{Parts: []*genai.Part{{Text: "Be brief."}}},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(spliced)).To(Equal(string(own)))
	})

	It("encodes a resend from its cache and still sends what changed", func() {
		var first, second []byte
		generate().AddMatcher(body(&first)).Reply(200).BodyString(answerBody)
		generate().AddMatcher(body(&second)).Reply(200).BodyString(answerBody)
		req := turn()
		_, err := provider.Send(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		req.Messages = append(req.Clone().Messages, recovery.Message{Role: "assistant", Text: "Bonjour."}, recovery.Message{Role: "user", Text: "Merci."})
		req.MaxTokens = 2048
		_, err = provider.Send(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(second).To(ContainSubstring(`"maxOutputTokens":2048`))
		Expect(second).To(ContainSubstring(`{"parts":[{"text":"Merci."}],"role":"user"}`))
		Expect(first).NotTo(ContainSubstring("Merci"))
	})

	DescribeTable("answers",
		func(body, stop string, text string) {
			generate().Reply(200).BodyString(body)
			resp, err := provider.Send(ctx, turn())
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.StopReason).To(Equal(stop))
			Expect(resp.Text).To(Equal(text))
			Expect(recovery.DefaultClassifier(resp, nil).Kind).NotTo(Equal(recovery.KindUnknown))
		},
		Entry("MAX_TOKENS is truncation", cutBody, "max_tokens", "The answer is"),
		Entry("SAFETY is a refusal", safetyBody, "refusal", ""),
	)

	DescribeTable("error statuses",
		func(code int, body string, kind recovery.Kind, check func(*recovery.APIError)) {
			generate().Reply(code).SetHeader("x-request-echo", "yes").BodyString(body)
			_, err := provider.Send(ctx, turn())
			var apiErr *recovery.APIError
			Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
			Expect(apiErr.StatusCode).To(Equal(code))
			Expect(apiErr.Header.Get("x-request-echo")).To(Equal("yes"))
			var sdkErr genai.APIError
			Expect(errors.As(err, &sdkErr)).To(BeTrue())
			Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(kind))
			if check != nil {
				check(apiErr)
			}
		},
		Entry("per-minute 429: RetryInfo and the quota id", 429, quotaBody, recovery.KindRateLimit, func(e *recovery.APIError) {
			Expect(e.Type).To(Equal("RESOURCE_EXHAUSTED"))
			Expect(e.RetryDelay).To(Equal(14 * time.Second))
			Expect(e.QuotaIDs).To(Equal([]string{"GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}))
		}),
		Entry("per-day 429", 429, dailyBody, recovery.KindQuotaExhausted, func(e *recovery.APIError) {
			Expect(e.RetryDelay).To(Equal(time.Hour))
		}),
		Entry("a 429 without details: the message's wait", 429, bareQuota, recovery.KindRateLimit, func(e *recovery.APIError) {
			Expect(e.RetryDelay).To(Equal(2500 * time.Millisecond))
		}),
		Entry("503 UNAVAILABLE", 503, unavail, recovery.KindOverloaded, nil),
		Entry("400 over the window, with its numbers", 400, tooLong, recovery.KindContextOverflow, func(e *recovery.APIError) {
			Expect(recovery.DefaultClassifier(nil, e).Overflow).To(Equal(recovery.Overflow{Input: 1048577, Window: 1048576}))
		}),
		Entry("403", 403, denied, recovery.KindPermission, nil),
		Entry("404", 404, notFound, recovery.KindNotFound, nil),
		Entry("a proxy's page", 502, "<html>Bad Gateway</html>", recovery.KindServer, func(e *recovery.APIError) {
			Expect(e.Message).To(Equal("<html>Bad Gateway</html>"))
			Expect(e.Type).To(BeEmpty())
		}),
	)

	It("hands a 200 whose body breaks back as a BodyError", func() {
		generate().Reply(200).BodyString(`{"candidates":[`)
		_, err := provider.Send(ctx, turn())
		var be *recovery.BodyError
		Expect(errors.As(err, &be)).To(BeTrue(), "%v", err)
		Expect(be.StatusCode).To(Equal(200))
		Expect(be.Source).To(Equal("gemini"))
	})

	It("keeps a transport error's cause", func() {
		generate().ReplyError(syscall.ECONNRESET)
		_, err := provider.Send(ctx, turn())
		Expect(errors.Is(err, syscall.ECONNRESET)).To(BeTrue(), "%v", err)
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindConnection))
	})

	It("refuses a message of another role before sending", func() {
		req := turn()
		req.Messages[0].Role = "system"
		_, err := provider.Send(ctx, req)
		Expect(err).To(MatchError(ContainSubstring(`message 0 has role "system"`)))
	})
})
