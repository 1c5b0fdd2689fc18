package mockllm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"google.golang.org/genai"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// The official Gemini Go SDK (google.golang.org/genai) parses every answer
// and every error the mock sends on the Gemini wire: plain, streamed,
// counted, cut at the budget, tool calls, the scripted and the mock's own
// errors with their details, and an error inside a stream.
var _ = Describe("the Gemini SDK over loopback", func() {
	var (
		srv    *mockllm.Server
		client *genai.Client
		ctx    context.Context
		base   string
	)
	start := func(sc *scenario.Scenario) {
		srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		ep, err := mockllm.Start(srv, "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		base = ep.BaseURL(scName)
		transport := &http.Transport{Proxy: nil}
		DeferCleanup(func() {
			Expect(ep.Close()).To(Succeed())
			transport.CloseIdleConnections()
		})
		client, err = genai.NewClient(ctx, &genai.ClientConfig{
			APIKey: "test", Backend: genai.BackendGeminiAPI, HTTPClient: &http.Client{Transport: transport},
			HTTPOptions: genai.HTTPOptions{BaseURL: ep.BaseURL(scName), Headers: http.Header{mockllm.SessionHeader: {"g1"}}},
		})
		Expect(err).NotTo(HaveOccurred())
	}
	gemini := func(script ...scenario.Rule) *scenario.Scenario {
		sc := newScenario(script...)
		sc.Models["gemini-test"] = scenario.Model{ContextWindow: 1000, MaxOutput: 500}
		sc.Turn.Model, sc.Turn.Wire = "gemini-test", scenario.WireGemini
		return sc
	}
	noContinue := func(maxTokens int32) *genai.GenerateContentConfig {
		return &genai.GenerateContentConfig{MaxOutputTokens: maxTokens, AutomaticContinuation: genai.Ptr(false),
			SystemInstruction: &genai.Content{Parts: []*genai.Part{{Text: tokens.Text(30)}}}}
	}
	contents := func(n int) []*genai.Content {
		return []*genai.Content{{Role: genai.RoleUser, Parts: []*genai.Part{{Text: tokens.Text(n)}}}}
	}
	apiError := func(err error) genai.APIError {
		var e genai.APIError
		ExpectWithOffset(1, errors.As(err, &e)).To(BeTrue(), "%v", err)
		return e
	}
	detail := func(e genai.APIError, typ string) map[string]any {
		for _, d := range e.Details {
			if d["@type"] == "type.googleapis.com/google.rpc."+typ {
				return d
			}
		}
		return nil
	}
	BeforeEach(func() { ctx = context.Background() })

	It("parses an answer, a stream and a count, counted alike, and journals them", func() {
		start(gemini())
		r, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Text()).To(Equal(tokens.Text(answerTokens)))
		Expect(r.Candidates[0].FinishReason).To(Equal(genai.FinishReasonStop))
		Expect(r.UsageMetadata.PromptTokenCount).To(Equal(int32(100)))
		Expect(r.UsageMetadata.CandidatesTokenCount).To(Equal(int32(answerTokens)))
		Expect(r.ResponseID).NotTo(BeEmpty())

		var text string
		var last *genai.GenerateContentResponse
		frames := 0
		for chunk, err := range client.Models.GenerateContentStream(ctx, "gemini-test", contents(70), noContinue(400)) {
			Expect(err).NotTo(HaveOccurred())
			text += chunk.Text()
			last = chunk
			frames++
		}
		Expect(frames).To(BeNumerically(">", 1))
		Expect(text).To(Equal(r.Text()))
		Expect(last.Candidates[0].FinishReason).To(Equal(genai.FinishReasonStop))
		Expect(last.UsageMetadata.PromptTokenCount).To(Equal(int32(100)))

		// The SDK sends no systemInstruction to the Gemini API's countTokens.
		n, err := client.Models.CountTokens(ctx, "gemini-test", contents(70), nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(n.TotalTokens).To(Equal(int32(70)))

		es := srv.Entries(scName, "g1")
		Expect(es).To(HaveLen(2))
		Expect(es[0].Wire).To(Equal("gemini"))
		Expect(es[0].InputTokens).To(Equal(100))
		Expect(es[1].Stream).To(BeTrue())
	})

	It("cuts an answer at maxOutputTokens with MAX_TOKENS", func() {
		start(gemini())
		r, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(10))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Candidates[0].FinishReason).To(Equal(genai.FinishReasonMaxTokens))
		Expect(r.UsageMetadata.CandidatesTokenCount).To(Equal(int32(10)))
	})

	It("sends a per-minute 429 with QuotaFailure, Help and RetryInfo, and no retry-after", func() {
		start(gemini(rule(scenario.When{Before: secs(30)}, scenario.Respond{Status: 429})))
		_, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
		e := apiError(err)
		Expect(e.Code).To(Equal(429))
		Expect(e.Status).To(Equal("RESOURCE_EXHAUSTED"))
		Expect(e.Message).To(ContainSubstring("Please retry in 30s."))
		Expect(detail(e, "RetryInfo")["retryDelay"]).To(Equal("30s"))
		Expect(detail(e, "Help")).NotTo(BeNil())
		v := detail(e, "QuotaFailure")["violations"].([]any)[0].(map[string]any)
		Expect(v["quotaId"]).To(Equal("GenerateRequestsPerMinutePerProjectPerModel"))
		es := srv.Entries(scName, "g1")
		Expect(es[0].Kind).To(Equal("rate_limit"))
	})

	It("sends a per-day 429 that a rule scripts, journalled as a quota", func() {
		start(gemini(rule(scenario.When{}, scenario.Respond{Status: 429, Quota: scenario.QuotaPerDay, RetryDelay: scenario.Duration(7 * time.Hour)})))
		_, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
		e := apiError(err)
		Expect(detail(e, "RetryInfo")["retryDelay"]).To(Equal("25200s"))
		v := detail(e, "QuotaFailure")["violations"].([]any)[0].(map[string]any)
		Expect(v["quotaId"]).To(Equal("GenerateRequestsPerDayPerProjectPerModel"))
		e0 := srv.Entries(scName, "g1")[0]
		Expect(e0.Kind).To(Equal("quota_exhausted"))
		// The journal measures the client against the wait the body asks.
		Expect(*e0.RetryAfterMS).To(Equal(int64(7 * time.Hour / time.Millisecond)))
	})

	It("turns an overload into 503 UNAVAILABLE and an input over the window into Gemini's 400", func() {
		start(gemini(rule(scenario.When{Attempt: 1}, status(529))))
		_, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
		e := apiError(err)
		Expect(e.Code).To(Equal(503))
		Expect(e.Status).To(Equal("UNAVAILABLE"))
		_, err = client.Models.GenerateContent(ctx, "gemini-test", contents(2000), noContinue(400))
		e = apiError(err)
		Expect(e.Code).To(Equal(400))
		Expect(e.Status).To(Equal("INVALID_ARGUMENT"))
		Expect(e.Message).To(Equal("The input token count (2030) exceeds the maximum number of tokens allowed (1000)."))
		_, err = client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(600))
		Expect(apiError(err).Message).To(ContainSubstring("maxOutputTokens value of 600"))
		_, err = client.Models.GenerateContent(ctx, "nope", contents(70), noContinue(400))
		e = apiError(err)
		Expect(e.Code).To(Equal(404))
		Expect(e.Status).To(Equal("NOT_FOUND"))
		kinds := []string{}
		for _, en := range srv.Entries(scName, "g1") {
			kinds = append(kinds, en.Kind)
		}
		Expect(kinds).To(Equal([]string{"overloaded", "context_overflow", "invalid_request", "not_found"}))
	})

	It("sends an error inside a stream after its first frames", func() {
		start(gemini(rule(scenario.When{}, scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 2}, Status: 0, Type: "overloaded_error"})))
		frames := 0
		var got error
		for _, err := range client.Models.GenerateContentStream(ctx, "gemini-test", contents(70), noContinue(400)) {
			if err != nil {
				got = err
				break
			}
			frames++
		}
		Expect(frames).To(Equal(2))
		e := apiError(got)
		Expect(e.Status).To(Equal("UNAVAILABLE"))
	})

	It("parses tool calls as functionCall parts, plain and streamed, and takes their answers back", func() {
		sc := gemini(rule(scenario.When{}, scenario.Respond{ToolUse: []scenario.ToolUse{
			{Name: "read", Input: `{"path": "a.go"}`}, {Name: "list"},
		}}))
		sc.Tools = []scenario.Tool{{Name: "read"}, {Name: "list"}}
		start(sc)
		r, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
		Expect(err).NotTo(HaveOccurred())
		calls := r.FunctionCalls()
		Expect(calls).To(HaveLen(2))
		Expect(calls[0].Name).To(Equal("read"))
		Expect(calls[0].Args).To(Equal(map[string]any{"path": "a.go"}))
		Expect(calls[0].ID).To(HavePrefix("call-"))
		Expect(calls[1].Name).To(Equal("list"))
		Expect(r.Candidates[0].FinishReason).To(Equal(genai.FinishReasonStop))

		var streamed []*genai.FunctionCall
		for chunk, err := range client.Models.GenerateContentStream(ctx, "gemini-test", contents(70), noContinue(400)) {
			Expect(err).NotTo(HaveOccurred())
			streamed = append(streamed, chunk.FunctionCalls()...)
		}
		Expect(streamed).To(HaveLen(2))
		Expect(streamed[0].Args).To(Equal(calls[0].Args))

		// The calls and their answers go back as the SDK words them.
		answered := append(contents(70), r.Candidates[0].Content, &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{
			genai.NewPartFromFunctionResponse("read", map[string]any{"output": "package a"}),
			genai.NewPartFromFunctionResponse("list", map[string]any{"output": "a.go"}),
		}})
		_, err = client.Models.GenerateContent(ctx, "gemini-test", answered, noContinue(400))
		Expect(err).NotTo(HaveOccurred())
		es := srv.Entries(scName, "g1")
		Expect(es[2].Status).To(Equal(200))
		Expect(es[2].InputTokens).To(BeNumerically(">", es[0].InputTokens))
	})

	It("sends the quota buckets' 429 naming the metric that refused, with the refill's wait", func() {
		sc := gemini()
		m := sc.Models["gemini-test"]
		m.Limits = scenario.RateLimits{RPM: 1}
		sc.Models["gemini-test"] = m
		start(sc)
		_, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
		Expect(err).NotTo(HaveOccurred())
		_, err = client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
		e := apiError(err)
		Expect(e.Code).To(Equal(429))
		Expect(e.Message).To(ContainSubstring("limit: 1, model: gemini-test"))
		Expect(detail(e, "RetryInfo")["retryDelay"]).To(Equal("60s"))
		v := detail(e, "QuotaFailure")["violations"].([]any)[0].(map[string]any)
		Expect(v["quotaMetric"]).To(Equal("generativelanguage.googleapis.com/generate_content_requests"))
		es := srv.Entries(scName, "g1")
		Expect(*es[1].RetryAfterMS).To(Equal(int64(60000)))
	})

	It("words the other statuses as Google does", func() {
		start(gemini(
			scenario.Rule{Times: 1, Respond: status(500)},
			scenario.Rule{Times: 1, Respond: status(504)},
			scenario.Rule{Times: 1, Respond: scenario.Respond{Status: 403, Message: "Permission denied on resource project x."}},
		))
		for _, want := range []struct {
			code   int
			status string
		}{{500, "INTERNAL"}, {504, "DEADLINE_EXCEEDED"}, {403, "PERMISSION_DENIED"}} {
			_, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
			e := apiError(err)
			Expect(e.Code).To(Equal(want.code))
			Expect(e.Status).To(Equal(want.status))
			Expect(e.Message).NotTo(BeEmpty())
		}
	})

	It("gives the SDK a frame it cannot parse for the malformed fault", func() {
		start(gemini(rule(scenario.When{}, scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultMalformed}})))
		_, err := client.Models.GenerateContent(ctx, "gemini-test", contents(70), noContinue(400))
		Expect(err).To(HaveOccurred())
		var got error
		for _, err := range client.Models.GenerateContentStream(ctx, "gemini-test", contents(70), noContinue(400)) {
			if err != nil {
				got = err
				break
			}
		}
		Expect(got).To(HaveOccurred())
	})

	It("refuses a request without a key, as the API does, and takes ?key=", func() {
		start(gemini())
		body := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
		post := func(url string) int {
			resp, err := http.Post(url, "application/json", strings.NewReader(body))
			Expect(err).NotTo(HaveOccurred())
			defer resp.Body.Close()
			return resp.StatusCode
		}
		Expect(post(base + "v1beta/models/gemini-test:generateContent")).To(Equal(403))
		Expect(post(base + "v1beta/models/gemini-test:generateContent?key=t")).To(Equal(200))
		Expect(post(base + "v1beta/models/gemini-test:embedContent?key=t")).To(Equal(404))
		Expect(post(base + "v1beta/models?key=t")).To(Equal(404))
	})

	It("sends a 429's wait in its body only: no retry-after header", func() {
		start(gemini(rule(scenario.When{}, status(429))))
		req, err := http.NewRequest(http.MethodPost, base+"v1beta/models/gemini-test:generateContent",
			strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("x-goog-api-key", "t")
		resp, err := http.DefaultClient.Do(req)
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(429))
		Expect(resp.Header.Values("Retry-After")).To(BeEmpty())
		Expect(resp.Header.Get("Content-Type")).To(HavePrefix("application/json"))
	})
})
