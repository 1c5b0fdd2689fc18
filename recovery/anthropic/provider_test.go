package anthropic_test

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

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/h2non/gock"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/anthropic"
)

const baseURL = "https://api.anthropic.test"

// The error bodies as the Messages API sends them (docs/classification.md).
const (
	rateLimitBody  = `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50,000 input tokens per minute."},"request_id":"req_429"}`
	overloadedBody = `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_529"}`
	tooLongBody    = `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"},"request_id":"req_400"}`
	answerBody     = `{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"Hello, "},{"type":"tool_use","id":"toolu_1","name":"noop","input":{}},{"type":"text","text":"world."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":5}}`
)

// turn is a small request of two messages.
func turn() recovery.Request {
	return recovery.Request{
		Model:     "claude-test",
		MaxTokens: 1024,
		System:    "Be brief.",
		Messages: []recovery.Message{
			{Role: "user", Text: "Hi"},
			{Role: "assistant", Text: "Hello."},
			{Role: "user", Text: "Say hello to the world."},
		},
		Purpose: recovery.PurposeTurn,
	}
}

// messages registers a mock for POST /v1/messages.
func messages() *gock.Request {
	return gock.New(baseURL).Post("/v1/messages")
}

var _ = Describe("Provider", func() {
	var (
		httpClient *http.Client
		provider   *anthropic.Provider
		ctx        context.Context
	)

	// newProvider builds a Provider whose requests only gock answers.
	newProvider := func(opts ...option.RequestOption) *anthropic.Provider {
		base := []option.RequestOption{
			option.WithBaseURL(baseURL),
			option.WithAPIKey("test-key"),
			option.WithHTTPClient(httpClient),
		}
		return anthropic.New(append(base, opts...)...)
	}

	BeforeEach(func() {
		ctx = context.Background()
		httpClient = &http.Client{}
		gock.InterceptClient(httpClient)
		gock.Intercept() // so that a request with no mock gets gock's error, never the network
		gock.DisableNetworking()
		DeferCleanup(gock.OffAll)
		provider = newProvider()
	})

	It("maps the request and the answer", func() {
		var body []byte
		messages().
			MatchHeader("Authorization", "^Bearer test-key$"). // v2 sends the API key as a bearer token, not x-api-key
			MatchHeader("X-Stainless-Retry-Count", "0").
			AddMatcher(func(req *http.Request, _ *gock.Request) (bool, error) {
				b, err := io.ReadAll(req.Body)
				req.Body = io.NopCloser(bytes.NewReader(b))
				body = b
				return true, err
			}).
			Reply(200).
			SetHeader("request-id", "req_200").
			SetHeader("Content-Type", "application/json").
			BodyString(answerBody)

		resp, err := provider.Send(ctx, turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(gock.IsDone()).To(BeTrue())

		Expect(body).To(MatchJSON(`{
			"model": "claude-test",
			"max_tokens": 1024,
			"system": [{"type": "text", "text": "Be brief."}],
			"messages": [
				{"role": "user", "content": [{"type": "text", "text": "Hi"}]},
				{"role": "assistant", "content": [{"type": "text", "text": "Hello."}]},
				{"role": "user", "content": [{"type": "text", "text": "Say hello to the world."}]}
			]
		}`))
		Expect(resp.ID).To(Equal("msg_01"))
		Expect(resp.Model).To(Equal("claude-test"))
		Expect(resp.Text).To(Equal("Hello, world."))
		Expect(resp.StopReason).To(Equal("end_turn"))
		Expect(resp.InputTokens).To(Equal(12))
		Expect(resp.OutputTokens).To(Equal(5))
		Expect(resp.Header.Get("request-id")).To(Equal("req_200"))
		Expect(recovery.DefaultClassifier(resp, nil).Kind).To(Equal(recovery.KindOK))
	})

	It("leaves out an empty system prompt", func() {
		messages().
			AddMatcher(func(req *http.Request, _ *gock.Request) (bool, error) {
				b, err := io.ReadAll(req.Body)
				req.Body = io.NopCloser(bytes.NewReader(b))
				return !bytes.Contains(b, []byte(`"system"`)), err
			}).
			Reply(200).JSON(answerBody)

		req := turn()
		req.System = ""
		_, err := provider.Send(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(gock.IsDone()).To(BeTrue())
	})

	It("sends a non-streaming request with a large max_tokens", func() {
		// Without a request timeout the SDK refuses this before sending.
		messages().Reply(200).JSON(answerBody)
		req := turn()
		req.Model, req.MaxTokens = "claude-opus-4-20250514", 64000
		_, err := provider.Send(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(gock.IsDone()).To(BeTrue())
	})

	It("adds the per-request options", func() {
		messages().MatchHeader("X-Faultbench-Purpose", "repair").Reply(200).JSON(answerBody)
		p := provider.WithRequestOptions(func(r recovery.Request) []option.RequestOption {
			return []option.RequestOption{option.WithHeader("X-Faultbench-Purpose", string(r.Purpose))}
		})
		req := turn()
		req.Purpose = recovery.PurposeRepair
		_, err := p.Send(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(gock.IsDone()).To(BeTrue())
	})

	It("reads Amazon Bedrock's {\"message\"} body as the error's message, so its overflow is one", func() {
		messages().Reply(400).
			SetHeader("X-Amzn-ErrorType", "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/").
			SetHeader("Content-Type", "application/json").
			BodyString(`{"message":"Input is too long for requested model."}`)
		_, err := provider.Send(ctx, turn())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.Message).To(Equal("Input is too long for requested model."))
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindContextOverflow))
	})

	It("turns a 429 into an APIError with its headers", func() {
		messages().Reply(429).
			SetHeader("retry-after", "12").
			SetHeader("request-id", "req_429").
			SetHeader("anthropic-ratelimit-input-tokens-reset", "2026-01-02T15:04:17Z").
			SetHeader("Content-Type", "application/json").
			BodyString(rateLimitBody)

		resp, err := provider.Send(ctx, turn())
		Expect(resp).To(BeNil())
		Expect(gock.IsDone()).To(BeTrue())

		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.StatusCode).To(Equal(429))
		Expect(apiErr.Type).To(Equal("rate_limit_error"))
		Expect(apiErr.Message).To(HavePrefix("This request would exceed the rate limit"))
		Expect(apiErr.RequestID).To(Equal("req_429"))
		Expect(apiErr.Header.Get("retry-after")).To(Equal("12"))

		var sdkErr *sdk.Error
		Expect(errors.As(err, &sdkErr)).To(BeTrue(), "the SDK's error stays in the chain")
		Expect(sdkErr.StatusCode).To(Equal(429))

		f := recovery.DefaultClassifier(nil, err)
		Expect(f.Kind).To(Equal(recovery.KindRateLimit))
		wait, ok := recovery.RetryAfter(f.Header, time.Now())
		Expect(ok).To(BeTrue())
		Expect(wait).To(Equal(12 * time.Second))
	})

	DescribeTable("sends a 529 once: the SDK does not retry",
		func(p func() *anthropic.Provider) {
			first := messages().Times(1)
			first.Reply(529).
				SetHeader("x-should-retry", "true").
				SetHeader("retry-after-ms", "0"). // should the SDK retry after all, it would not sleep
				SetHeader("Content-Type", "application/json").
				BodyString(overloadedBody)
			second := messages().Times(1)
			second.Reply(200).JSON(answerBody)

			_, err := p().Send(ctx, turn())

			var apiErr *recovery.APIError
			Expect(errors.As(err, &apiErr)).To(BeTrue())
			Expect(apiErr.StatusCode).To(Equal(529))
			Expect(apiErr.Type).To(Equal("overloaded_error"))
			Expect(apiErr.Header.Get("x-should-retry")).To(Equal("true"))
			Expect(gock.Pending()).To(HaveLen(1), "the second mock must stay unused")
			Expect(gock.Pending()[0].Request()).To(BeIdenticalTo(second))

			f := recovery.DefaultClassifier(nil, err)
			Expect(f.Kind).To(Equal(recovery.KindOverloaded))
			Expect(f.ShouldRetry).To(HaveValue(BeTrue()))
		},
		Entry("by default", func() *anthropic.Provider { return provider }),
		Entry("even when the caller asks for retries",
			func() *anthropic.Provider { return newProvider(option.WithMaxRetries(3)) }),
		Entry("even when a per-request option asks for retries",
			func() *anthropic.Provider {
				return provider.WithRequestOptions(func(recovery.Request) []option.RequestOption {
					return []option.RequestOption{option.WithMaxRetries(3)}
				})
			}),
	)

	It("carries an overflow message to the classifier", func() {
		messages().Reply(400).SetHeader("Content-Type", "application/json").BodyString(tooLongBody)

		_, err := provider.Send(ctx, turn())
		Expect(gock.IsDone()).To(BeTrue())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.StatusCode).To(Equal(400))
		Expect(apiErr.Type).To(Equal("invalid_request_error"))
		Expect(apiErr.Message).To(Equal("prompt is too long: 210000 tokens > 200000 maximum"))

		f := recovery.DefaultClassifier(nil, err)
		Expect(f.Kind).To(Equal(recovery.KindContextOverflow))
		Expect(f.Overflow).To(Equal(recovery.Overflow{Input: 210000, Window: 200000}))
	})

	It("keeps an error type the SDK does not know and the error code", func() {
		messages().Reply(413).SetHeader("Content-Type", "application/json").
			BodyString(`{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes.","details":{"error_code":"request_body_too_large_after_decoding"}}}`)

		_, err := provider.Send(ctx, turn())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.Type).To(Equal("request_too_large"))
		Expect(apiErr.Code).To(Equal("request_body_too_large_after_decoding"))
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindRequestTooLarge))
	})

	DescribeTable("reads Vertex AI's gateway errors, Google's envelope, as their status says",
		func(status int, body string, typ string, kind recovery.Kind) {
			messages().Reply(status).SetHeader("Content-Type", "application/json").BodyString(body)
			_, err := provider.Send(ctx, turn())
			var apiErr *recovery.APIError
			Expect(errors.As(err, &apiErr)).To(BeTrue())
			Expect(apiErr.Type).To(Equal(typ))
			Expect(apiErr.Message).NotTo(HavePrefix("["))
			Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(kind))
		},
		Entry("the quota 429, a JSON array whose message speaks of a quota, is a rate limit", 429,
			`[{"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude.","status":"RESOURCE_EXHAUSTED"}}]`,
			"RESOURCE_EXHAUSTED", recovery.KindRateLimit),
		Entry("a model not enabled is an invalid request", 400,
			`{"error":{"code":400,"message":"Project is not allowed to use Publisher Model","status":"FAILED_PRECONDITION"}}`,
			"FAILED_PRECONDITION", recovery.KindInvalidRequest),
		Entry("a missing token is an auth error", 401,
			`{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}`,
			"UNAUTHENTICATED", recovery.KindAuth),
	)

	It("takes the words of a proxy's page that is not JSON", func() {
		messages().Reply(502).SetHeader("Content-Type", "text/html").
			BodyString("<html><body>502 Bad Gateway</body></html>")

		_, err := provider.Send(ctx, turn())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.StatusCode).To(Equal(502))
		Expect(apiErr.Type).To(BeEmpty())
		Expect(apiErr.Message).To(ContainSubstring("502 Bad Gateway"))
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindServer))
	})

	It("wraps a transport error without making it an APIError", func() {
		reset := &net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}
		messages().ReplyError(reset)

		_, err := provider.Send(ctx, turn())
		Expect(gock.IsDone()).To(BeTrue())
		Expect(err).To(HaveOccurred())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeFalse())
		Expect(errors.Is(err, syscall.ECONNRESET)).To(BeTrue())
		var opErr *net.OpError
		Expect(errors.As(err, &opErr)).To(BeTrue())
		Expect(opErr).To(BeIdenticalTo(reset))
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindConnection))
	})

	It("reports a cancelled context as such", func() {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := provider.Send(cctx, turn())
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindCancelled))
	})

	It("lets the caller's request timeout win over the default", func() {
		// The mock answers after an hour or when the request's context ends,
		// whichever comes first; with the caller's 1 ns timeout, that is now.
		messages().Reply(200).Delay(time.Hour).JSON(answerBody)
		p := newProvider(option.WithRequestTimeout(time.Nanosecond))
		_, err := p.Send(ctx, turn())
		Expect(errors.Is(err, context.DeadlineExceeded)).To(BeTrue())
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindTimeout))
	})

	It("refuses a role the Messages API has no message for, before sending", func() {
		req := turn()
		req.Messages[0].Role = "tool"
		_, err := provider.Send(ctx, req)
		Expect(err).To(MatchError(ContainSubstring(`role "tool"`)))
		Expect(gock.HasUnmatchedRequest()).To(BeFalse())
	})
})
