package openai_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	"github.com/h2non/gock"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/openai"
)

const baseURL = "https://api.openai.test/v1"

// Bodies as Chat Completions sends them (docs/classification.md).
const (
	answerBody   = `{"id":"chatcmpl-1","object":"chat.completion","created":1767225600,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"Bonjour.","refusal":null},"finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}`
	lengthBody   = `{"id":"chatcmpl-2","object":"chat.completion","created":1767225600,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":"The answer is","refusal":null},"finish_reason":"length","logprobs":null}],"usage":{"prompt_tokens":12,"completion_tokens":4,"total_tokens":16}}`
	refusalBody  = `{"id":"chatcmpl-3","object":"chat.completion","created":1767225600,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":12,"completion_tokens":6,"total_tokens":18}}`
	rateBody     = `{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29500, Requested 900. Please try again in 84ms.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`
	quotaBody    = `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`
	overflowBody = `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`
	serverBody   = `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`
)

func turn() recovery.Request {
	return recovery.Request{
		Model: "gpt-test", MaxTokens: 1024, System: "Be brief.",
		Messages: []recovery.Message{
			{Role: "user", Text: "Hi"},
			{Role: "assistant", Text: "Hello."},
			{Role: "user", Text: "Say hello in French."},
		},
		Purpose: recovery.PurposeTurn,
	}
}

func completions() *gock.Request { return gock.New(baseURL).Post("/chat/completions") }

// body captures the request body a mock matched.
func body(into *[]byte) gock.MatchFunc {
	return func(req *http.Request, _ *gock.Request) (bool, error) {
		b, err := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		*into = b
		return true, err
	}
}

var _ = Describe("Provider", func() {
	var (
		httpClient *http.Client
		provider   *openai.Provider
		ctx        context.Context
	)
	newProvider := func(opts ...option.RequestOption) *openai.Provider {
		base := []option.RequestOption{option.WithBaseURL(baseURL), option.WithAPIKey("test-key"), option.WithHTTPClient(httpClient)}
		return openai.New(append(base, opts...)...)
	}
	BeforeEach(func() {
		ctx = context.Background()
		httpClient = &http.Client{}
		gock.InterceptClient(httpClient)
		gock.Intercept()
		gock.DisableNetworking()
		DeferCleanup(gock.OffAll)
		provider = newProvider()
	})

	It("maps the request and the answer", func() {
		var sent []byte
		completions().MatchHeader("Authorization", "^Bearer test-key$").MatchHeader("X-Stainless-Retry-Count", "0").
			AddMatcher(body(&sent)).
			Reply(200).SetHeader("x-request-id", "req_1").JSON(answerBody)
		resp, err := provider.Send(ctx, turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(gock.IsDone()).To(BeTrue())
		Expect(sent).To(MatchJSON(`{
			"model": "gpt-test",
			"max_completion_tokens": 1024,
			"messages": [
				{"role": "system", "content": "Be brief."},
				{"role": "user", "content": "Hi"},
				{"role": "assistant", "content": "Hello."},
				{"role": "user", "content": "Say hello in French."}
			]
		}`))
		Expect(resp.ID).To(Equal("chatcmpl-1"))
		Expect(resp.Text).To(Equal("Bonjour."))
		Expect(resp.StopReason).To(Equal("stop"))
		Expect(resp.InputTokens).To(Equal(12))
		Expect(resp.OutputTokens).To(Equal(3))
		Expect(resp.Header.Get("x-request-id")).To(Equal("req_1"))
		Expect(recovery.DefaultClassifier(resp, nil).Kind).To(Equal(recovery.KindOK))
	})

	It("sends max_tokens instead when asked", func() {
		var sent []byte
		completions().AddMatcher(body(&sent)).Reply(200).JSON(answerBody)
		_, err := provider.WithLegacyMaxTokens().Send(ctx, turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(sent)).To(ContainSubstring(`"max_tokens":1024`))
		Expect(string(sent)).NotTo(ContainSubstring("max_completion_tokens"))
	})

	DescribeTable("answers, as the classifier reads them",
		func(reply string, stop string, kind recovery.Kind) {
			completions().Reply(200).JSON(reply)
			resp, err := provider.Send(ctx, turn())
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.StopReason).To(Equal(stop))
			Expect(recovery.DefaultClassifier(resp, nil).Kind).To(Equal(kind))
		},
		Entry("finish_reason length is truncated", lengthBody, "length", recovery.KindTruncated),
		Entry("a refusal", refusalBody, "refusal", recovery.KindRefusal),
		Entry("stop with no content is empty",
			`{"id":"c","object":"chat.completion","created":1,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":0,"total_tokens":1}}`,
			"stop", recovery.KindEmptyResponse),
	)

	DescribeTable("error statuses, with their headers, sent once",
		func(status int, reply string, header []string, kind recovery.Kind, check func(*recovery.APIError, recovery.Failure)) {
			r := completions().Times(1).Reply(status).SetHeader("x-request-id", "req_err").SetHeader("Content-Type", "application/json")
			for i := 0; i+1 < len(header); i += 2 {
				r.SetHeader(header[i], header[i+1])
			}
			r.BodyString(reply)
			second := completions().Times(1)
			second.Reply(200).JSON(answerBody)

			resp, err := provider.Send(ctx, turn())
			Expect(resp).To(BeNil())
			Expect(gock.Pending()).To(HaveLen(1), "the SDK must not retry")

			var apiErr *recovery.APIError
			Expect(errors.As(err, &apiErr)).To(BeTrue())
			Expect(apiErr.StatusCode).To(Equal(status))
			Expect(apiErr.RequestID).To(Equal("req_err"))
			var sdkErr *sdk.Error
			Expect(errors.As(err, &sdkErr)).To(BeTrue(), "the SDK's error stays in the chain")
			f := recovery.DefaultClassifier(nil, err)
			Expect(f.Kind).To(Equal(kind))
			if check != nil {
				check(apiErr, f)
			}
		},
		Entry("429 rate_limit_exceeded with its reset headers", 429, rateBody,
			[]string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "84ms", "x-ratelimit-reset-requests", "6m0s"},
			recovery.KindRateLimit, func(e *recovery.APIError, f recovery.Failure) {
				Expect(e.Code).To(Equal("rate_limit_exceeded"))
				d, ok := recovery.RateLimitReset(f.Header, time.Now())
				Expect(ok).To(BeTrue())
				Expect(d).To(Equal(84 * time.Millisecond))
			}),
		Entry("429 insufficient_quota", 429, quotaBody, nil, recovery.KindQuotaExhausted,
			func(e *recovery.APIError, _ recovery.Failure) { Expect(e.Type).To(Equal("insufficient_quota")) }),
		Entry("400 context_length_exceeded, with its numbers", 400, overflowBody, nil, recovery.KindContextOverflow,
			func(_ *recovery.APIError, f recovery.Failure) {
				Expect(f.Overflow).To(Equal(recovery.Overflow{Input: 130000, Window: 128000}))
			}),
		Entry("500 with x-should-retry: true and retry-after-ms", 500, serverBody,
			[]string{"x-should-retry", "true", "retry-after-ms", "0"}, recovery.KindServer,
			func(_ *recovery.APIError, f recovery.Failure) { Expect(f.ShouldRetry).To(HaveValue(BeTrue())) }),
	)

	It("gives the status and words of a proxy's page that is not JSON", func() {
		completions().Reply(502).SetHeader("Content-Type", "text/html").BodyString("<html><body>502 Bad Gateway</body></html>")
		_, err := provider.Send(ctx, turn())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.StatusCode).To(Equal(502))
		Expect(apiErr.Message).To(ContainSubstring("502 Bad Gateway"))
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindServer))
	})

	It("fails a 200 that carries an error instead of choices (OpenRouter's), its code read as the status it names", func() {
		completions().Reply(200).SetHeader("Content-Type", "application/json").
			BodyString(`{"error":{"code":502,"message":"Provider returned error","metadata":{"provider_name":"Anthropic"}},"user_id":"u"}`)
		_, err := provider.Send(ctx, turn())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.StatusCode).To(Equal(200))
		Expect(apiErr.Code).To(Equal("502"))
		Expect(apiErr.Message).To(Equal("Provider returned error"))
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindServer))
	})

	It("keeps the retries off even when the caller asks for them", func() {
		completions().Times(1).Reply(503).JSON(serverBody)
		completions().Times(1).Reply(200).JSON(answerBody)
		p := newProvider(option.WithMaxRetries(3)).WithRequestOptions(func(recovery.Request) []option.RequestOption {
			return []option.RequestOption{option.WithMaxRetries(3)}
		})
		_, err := p.Send(ctx, turn())
		Expect(err).To(HaveOccurred())
		Expect(gock.Pending()).To(HaveLen(1))
	})

	It("fails a 200 whose body is cut short as a *recovery.BodyError with the status that came", func() {
		completions().Reply(200).SetHeader("Content-Type", "application/json").BodyString(`{"id":"chatcmpl-1","obje`)
		_, err := provider.Send(ctx, turn())
		var bodyErr *recovery.BodyError
		Expect(errors.As(err, &bodyErr)).To(BeTrue(), "%v", err)
		Expect(bodyErr.StatusCode).To(Equal(200))
		Expect(bodyErr.Error()).To(HavePrefix("openai: HTTP 200"))
	})

	It("wraps a transport error without making it an APIError", func() {
		reset := &net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}
		completions().ReplyError(reset)
		_, err := provider.Send(ctx, turn())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeFalse())
		Expect(errors.Is(err, syscall.ECONNRESET)).To(BeTrue())
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindConnection))
	})

	It("reports a cancelled context as such", func() {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := provider.Send(cctx, turn())
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindCancelled))
	})

	It("refuses a role Chat Completions has no message for, before sending", func() {
		req := turn()
		req.Messages[0].Role = "tool"
		_, err := provider.Send(ctx, req)
		Expect(err).To(MatchError(ContainSubstring(`role "tool"`)))
		Expect(gock.HasUnmatchedRequest()).To(BeFalse())
	})
})
