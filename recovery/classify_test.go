package recovery_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
)

// wireError builds the *APIError a provider adapter would return for an error
// response with this status, body and headers (name, value pairs). It reads
// both envelopes: Anthropic's {"type":"error","error":{type,message,
// details:{error_code}},"request_id"} and OpenAI's
// {"error":{message,type,param,code}}.
// bedrockError is a Bedrock error as the engine's Anthropic transport
// reads it: the exception in typ (an error event inside a stream) or in
// x-amzn-ErrorType (an error status), the body's message.
func bedrockError(status int, typ, header, msg string) *recovery.APIError {
	h := http.Header{}
	if header != "" {
		h.Set("X-Amzn-ErrorType", header+":http://internal.amazon.com/coral/com.amazon.bedrock/")
	}
	return &recovery.APIError{StatusCode: status, Type: typ, Message: msg, Header: h}
}

func wireError(status int, body string, header ...string) *recovery.APIError {
	var env struct {
		Error struct {
			Type    string  `json:"type"`
			Message string  `json:"message"`
			Code    *string `json:"code"`
			Details struct {
				ErrorCode string `json:"error_code"`
			} `json:"details"`
		} `json:"error"`
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal([]byte(body), &env); err != nil {
		panic(fmt.Sprintf("bad test body %q: %v", body, err))
	}
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Add(header[i], header[i+1])
	}
	e := &recovery.APIError{
		StatusCode: status,
		Type:       env.Error.Type,
		Message:    env.Error.Message,
		RequestID:  env.RequestID,
		Header:     h,
	}
	switch {
	case env.Error.Code != nil:
		e.Code = *env.Error.Code
	case env.Error.Details.ErrorCode != "":
		e.Code = env.Error.Details.ErrorCode // as the Anthropic adapter maps it
	}
	return e
}

// Transport errors, built the way net and net/http build them.
func connReset() error {
	return &url.Error{Op: "Post", URL: "https://api.anthropic.com/v1/messages", Err: &net.OpError{
		Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET},
	}}
}

func connRefused() error {
	return &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/messages", Err: &net.OpError{
		Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1},
		Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED},
	}}
}

func brokenPipe() error {
	return &net.OpError{Op: "write", Net: "tcp", Err: &os.SyscallError{Syscall: "write", Err: syscall.EPIPE}}
}

func readTimeout() error {
	return &url.Error{Op: "Post", URL: "https://api.anthropic.com/v1/messages", Err: &net.OpError{
		Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded,
	}}
}

func noSuchHost() error {
	return &url.Error{Op: "Post", URL: "https://api.example.invalid/v1/messages", Err: &net.OpError{
		Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "api.example.invalid", IsNotFound: true},
	}}
}

var _ = Describe("DefaultClassifier", func() {
	DescribeTable("error responses and transport errors",
		func(err error, kind recovery.Kind, overflow recovery.Overflow) {
			f := recovery.DefaultClassifier(nil, err)
			Expect(f.Kind).To(Equal(kind))
			Expect(f.Overflow).To(Equal(overflow))
			Expect(f.Err).To(BeIdenticalTo(err))
		},

		// Anthropic Messages API.
		Entry("Anthropic 429 rate_limit_error with retry-after",
			wireError(429, `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization (7d1f2a) of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."},"request_id":"req_011CRate"}`,
				"retry-after", "12", "anthropic-ratelimit-input-tokens-reset", "2026-01-02T15:04:17Z"),
			recovery.KindRateLimit, recovery.Overflow{}),
		Entry("Anthropic 529 overloaded_error with x-should-retry true",
			wireError(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011COver"}`,
				"x-should-retry", "true"),
			recovery.KindOverloaded, recovery.Overflow{}),
		Entry("overloaded_error under another status",
			wireError(503, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			recovery.KindOverloaded, recovery.Overflow{}),
		Entry("Anthropic 500 api_error",
			wireError(500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_011CBoom"}`),
			recovery.KindServer, recovery.Overflow{}),
		Entry("502 from a gateway",
			wireError(502, `{"error":{"type":"api_error","message":"Bad gateway"}}`),
			recovery.KindServer, recovery.Overflow{}),
		Entry("504",
			wireError(504, `{"type":"error","error":{"type":"timeout_error","message":"Gateway timeout"}}`),
			recovery.KindServer, recovery.Overflow{}),
		Entry("Anthropic 400 invalid_request_error for a tool schema",
			wireError(400, `{"type":"error","error":{"type":"invalid_request_error","message":"tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use."},"request_id":"req_011CSchema"}`),
			recovery.KindInvalidRequest, recovery.Overflow{}),
		Entry("Anthropic 400 max_tokens above the model's output limit is not an overflow",
			wireError(400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-20250514"}}`),
			recovery.KindInvalidRequest, recovery.Overflow{}),
		Entry("Anthropic 400 prompt is too long",
			wireError(400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"},"request_id":"req_011CLong"}`),
			recovery.KindContextOverflow, recovery.Overflow{Input: 210000, Window: 200000}),
		Entry("Anthropic 400 input length and max_tokens exceed context limit",
			wireError(400, `{"type":"error","error":{"type":"invalid_request_error","message":"input length and `+"`max_tokens`"+` exceed context limit: 190000 + 16000 > 200000, decrease input length or `+"`max_tokens`"+` and try again"}}`),
			recovery.KindContextOverflow, recovery.Overflow{Input: 190000, MaxTokens: 16000, Window: 200000}),
		Entry("413 whose message speaks of the prompt",
			wireError(413, `{"type":"error","error":{"type":"request_too_large","message":"Prompt is too long for this model"}}`),
			recovery.KindContextOverflow, recovery.Overflow{}),
		Entry("Anthropic 413 request_too_large",
			wireError(413, `{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes. The maximum request size is 32 MB."}}`),
			recovery.KindRequestTooLarge, recovery.Overflow{}),
		Entry("Anthropic 401 authentication_error",
			wireError(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_011CAuth"}`),
			recovery.KindAuth, recovery.Overflow{}),
		Entry("Anthropic 402 billing_error",
			wireError(402, `{"type":"error","error":{"type":"billing_error","message":"Your organization has no remaining credits."}}`),
			recovery.KindQuotaExhausted, recovery.Overflow{}),
		Entry("Anthropic 400 credit balance too low",
			wireError(400, `{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}`),
			recovery.KindQuotaExhausted, recovery.Overflow{}),
		Entry("Anthropic 403 permission_error",
			wireError(403, `{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}`),
			recovery.KindPermission, recovery.Overflow{}),
		Entry("Anthropic 404 not_found_error for a model",
			wireError(404, `{"type":"error","error":{"type":"not_found_error","message":"model: claude-sonnet-9"},"request_id":"req_011CModel"}`),
			recovery.KindNotFound, recovery.Overflow{}),
		Entry("408",
			wireError(408, `{"type":"error","error":{"type":"timeout_error","message":"Request timeout"}}`),
			recovery.KindTimeout, recovery.Overflow{}),
		Entry("Anthropic 409 conflict_error",
			wireError(409, `{"type":"error","error":{"type":"conflict_error","message":"Conflict"}}`),
			recovery.KindConflict, recovery.Overflow{}),
		Entry("422 about the request's shape",
			wireError(422, `{"error":{"message":"messages.1.content: field required","type":"invalid_request_error","param":null,"code":null}}`),
			recovery.KindInvalidRequest, recovery.Overflow{}),
		Entry("Anthropic 429 spend limit",
			wireError(429, `{"type":"error","error":{"type":"rate_limit_error","message":"You have reached your specified API usage limits.","details":{"error_code":"enforced_spend_limit_reached"}}}`),
			recovery.KindQuotaExhausted, recovery.Overflow{}),
		Entry("Anthropic 429 spend limit in words only",
			wireError(429, `{"type":"error","error":{"type":"rate_limit_error","message":"You have reached your specified API usage limits. You will regain access on 2026-02-01 at 00:00 UTC."}}`),
			recovery.KindQuotaExhausted, recovery.Overflow{}),
		Entry("an unexpected 4xx",
			wireError(418, `{"error":{"type":"teapot","message":"I'm a teapot"}}`),
			recovery.KindUnknown, recovery.Overflow{}),

		// OpenAI Chat Completions.
		Entry("OpenAI 400 context_length_exceeded",
			wireError(400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`),
			recovery.KindContextOverflow, recovery.Overflow{Input: 130000, Window: 128000}),
		Entry("OpenAI 400 context_length_exceeded with a completion",
			wireError(400, `{"error":{"message":"This model's maximum context length is 128000 tokens. However, you requested 140000 tokens (130000 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`),
			recovery.KindContextOverflow, recovery.Overflow{Input: 130000, MaxTokens: 10000, Window: 128000}),
		Entry("OpenAI 400 context_length_exceeded without numbers",
			wireError(400, `{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}`),
			recovery.KindContextOverflow, recovery.Overflow{}),
		Entry("OpenAI 400 bad function schema",
			wireError(400, `{"error":{"message":"Invalid schema for function 'get_weather': In context=(), 'required' is required to be supplied and to be an array including every key in properties.","type":"invalid_request_error","param":"tools[0].function.parameters","code":"invalid_function_parameters"}}`),
			recovery.KindInvalidRequest, recovery.Overflow{}),
		Entry("OpenAI 429 rate_limit_exceeded",
			wireError(429, `{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29500, Requested 900. Please try again in 84ms. Visit https://platform.openai.com/account/rate-limits to learn more.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`,
				"x-ratelimit-reset-tokens", "84ms"),
			recovery.KindRateLimit, recovery.Overflow{}),
		Entry("OpenAI 429 rate_limit_exceeded that points at billing",
			wireError(429, `{"error":{"message":"Rate limit reached for gpt-4o-mini in organization org-abc on requests per day (RPD): Limit 200, Used 200, Requested 1. Please try again in 7m12s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`),
			recovery.KindRateLimit, recovery.Overflow{}),
		Entry("OpenAI 429 insufficient_quota",
			wireError(429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`),
			recovery.KindQuotaExhausted, recovery.Overflow{}),
		// Azure OpenAI.
		Entry("Azure 429 from its gateway, whose message points at the quota-increase form",
			wireError(429, `{"error":{"code":"429","message":"Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."}}`,
				"retry-after-ms", "6000"),
			recovery.KindRateLimit, recovery.Overflow{}),
		Entry("Azure 400 content_filter",
			wireError(400, `{"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.","type":null,"param":"prompt","code":"content_filter","status":400}}`),
			recovery.KindRefusal, recovery.Overflow{}),
		// Amazon Bedrock: the exception in x-amzn-ErrorType, or in the
		// type of an error event inside a stream.
		Entry("Bedrock ThrottlingException",
			bedrockError(429, "", "ThrottlingException", "Too many tokens, please wait before trying again."), recovery.KindRateLimit, recovery.Overflow{}),
		Entry("Bedrock ModelNotReadyException, a 429 that is an overload",
			bedrockError(429, "", "ModelNotReadyException", "Model is not ready to serve inference requests."), recovery.KindOverloaded, recovery.Overflow{}),
		Entry("Bedrock ServiceUnavailableException",
			bedrockError(503, "", "ServiceUnavailableException", "Bedrock is unable to process your request."), recovery.KindOverloaded, recovery.Overflow{}),
		Entry("Bedrock ServiceQuotaExceededException, a 400",
			bedrockError(400, "", "ServiceQuotaExceededException", "Your request exceeds the service quota for your account."), recovery.KindQuotaExhausted, recovery.Overflow{}),
		Entry("Bedrock ModelErrorException, a 424",
			bedrockError(424, "", "ModelErrorException", "The request failed due to an error while processing the model."), recovery.KindServer, recovery.Overflow{}),
		Entry("Bedrock ValidationException for an over-long input",
			bedrockError(400, "", "ValidationException", "Input is too long for requested model."), recovery.KindContextOverflow, recovery.Overflow{}),
		Entry("Bedrock's 403 without Authorization",
			bedrockError(403, "", "MissingAuthenticationTokenException", "Missing Authentication Token"), recovery.KindAuth, recovery.Overflow{}),
		Entry("Bedrock throttlingException inside a stream (lower-case t)",
			bedrockError(200, "throttlingException", "", "Too many requests, please wait before trying again."), recovery.KindRateLimit, recovery.Overflow{}),
		Entry("Bedrock serviceUnavailableException inside a stream",
			bedrockError(200, "serviceUnavailableException", "", "Bedrock is unable to process your request."), recovery.KindOverloaded, recovery.Overflow{}),
		Entry("a 429 whose message alone speaks of quota",
			wireError(429, `{"error":{"message":"Quota exceeded for this project.","type":"requests","param":null,"code":null}}`),
			recovery.KindQuotaExhausted, recovery.Overflow{}),
		Entry("an APIError wrapped by its adapter",
			fmt.Errorf("openai: %w", wireError(503, `{"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","param":null,"code":null}}`)),
			recovery.KindServer, recovery.Overflow{}),

		// Transport errors.
		Entry("connection reset by peer", connReset(), recovery.KindConnection, recovery.Overflow{}),
		Entry("connection refused", connRefused(), recovery.KindConnection, recovery.Overflow{}),
		Entry("broken pipe", brokenPipe(), recovery.KindConnection, recovery.Overflow{}),
		Entry("connection aborted",
			&net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNABORTED}},
			recovery.KindConnection, recovery.Overflow{}),
		Entry("unexpected EOF wrapped with %w",
			fmt.Errorf("anthropic: reading body: %w", io.ErrUnexpectedEOF), recovery.KindConnection, recovery.Overflow{}),
		Entry("EOF as net/http reports a closed connection",
			&url.Error{Op: "Post", URL: "http://127.0.0.1:8080/v1/messages", Err: io.EOF}, recovery.KindConnection, recovery.Overflow{}),
		Entry("use of a closed connection", fmt.Errorf("stream: %w", net.ErrClosed), recovery.KindConnection, recovery.Overflow{}),
		Entry("DNS failure", noSuchHost(), recovery.KindConnection, recovery.Overflow{}),
		Entry("read timeout", readTimeout(), recovery.KindTimeout, recovery.Overflow{}),
		Entry("context.DeadlineExceeded of one attempt",
			fmt.Errorf("anthropic: %w", context.DeadlineExceeded), recovery.KindTimeout, recovery.Overflow{}),
		Entry("context.Canceled",
			&url.Error{Op: "Post", URL: "http://127.0.0.1:8080/v1/messages", Err: context.Canceled}, recovery.KindCancelled, recovery.Overflow{}),
		Entry("anything else", errors.New("tls: first record does not look like a TLS handshake"), recovery.KindUnknown, recovery.Overflow{}),
	)

	DescribeTable("answers (HTTP 200)",
		func(resp *recovery.Response, kind recovery.Kind) {
			f := recovery.DefaultClassifier(resp, nil)
			Expect(f.Kind).To(Equal(kind))
			Expect(f.StatusCode).To(Equal(200))
			Expect(f.Err).NotTo(HaveOccurred())
		},
		Entry("end_turn with text", &recovery.Response{Text: "Paris.", StopReason: "end_turn"}, recovery.KindOK),
		Entry("tool_use without text", &recovery.Response{StopReason: "tool_use"}, recovery.KindOK),
		Entry("stop_sequence", &recovery.Response{Text: "a", StopReason: "stop_sequence"}, recovery.KindOK),
		Entry("max_tokens", &recovery.Response{Text: "The answer is", StopReason: "max_tokens", OutputTokens: 4096}, recovery.KindTruncated),
		Entry("OpenAI finish_reason length", &recovery.Response{Text: "The answer is", StopReason: "length"}, recovery.KindTruncated),
		Entry("refusal", &recovery.Response{StopReason: "refusal"}, recovery.KindRefusal),
		Entry("OpenAI content_filter", &recovery.Response{StopReason: "content_filter"}, recovery.KindRefusal),
		Entry("empty with end_turn", &recovery.Response{StopReason: "end_turn"}, recovery.KindEmptyResponse),
		Entry("empty with no stop reason", &recovery.Response{}, recovery.KindEmptyResponse),
		Entry("model_context_window_exceeded", &recovery.Response{Text: "The", StopReason: "model_context_window_exceeded"}, recovery.KindContextOverflow),
	)

	It("keeps the headers of an answer", func() {
		h := http.Header{"Request-Id": {"req_1"}}
		f := recovery.DefaultClassifier(&recovery.Response{Text: "ok", StopReason: "end_turn", Header: h}, nil)
		Expect(f.Header).To(Equal(h))
		Expect(f.ShouldRetry).To(BeNil())
	})

	It("takes the input of a window-exceeded answer from its usage", func() {
		f := recovery.DefaultClassifier(&recovery.Response{StopReason: "model_context_window_exceeded", InputTokens: 150000, OutputTokens: 50000}, nil)
		Expect(f.Overflow).To(Equal(recovery.Overflow{Input: 150000}))
	})

	It("copies status, headers and x-should-retry from an APIError", func() {
		err := wireError(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			"x-should-retry", "true", "request-id", "req_2")
		f := recovery.DefaultClassifier(nil, err)
		Expect(f.StatusCode).To(Equal(529))
		Expect(f.Header.Get("request-id")).To(Equal("req_2"))
		Expect(f.ShouldRetry).To(HaveValue(BeTrue()))
	})

	DescribeTable("x-should-retry",
		func(value string, want *bool) {
			f := recovery.DefaultClassifier(nil, wireError(500, `{"error":{"type":"api_error","message":"x"}}`, "x-should-retry", value))
			Expect(f.ShouldRetry).To(Equal(want))
		},
		Entry("true", "true", boolPtr(true)),
		Entry("false", "false", boolPtr(false)),
		Entry("anything else", "maybe", nil),
	)

	It("has no status for a transport error", func() {
		f := recovery.DefaultClassifier(nil, connReset())
		Expect(f.StatusCode).To(BeZero())
		Expect(f.Header).To(BeNil())
	})

	It("calls a Provider that returned nothing unknown", func() {
		Expect(recovery.DefaultClassifier(nil, nil).Kind).To(Equal(recovery.KindUnknown))
	})
})

var _ = Describe("ParseOverflow", func() {
	DescribeTable("wordings with numbers",
		func(msg string, want recovery.Overflow) {
			got, ok := recovery.ParseOverflow(msg)
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(want))
		},
		Entry("Anthropic, input alone",
			"prompt is too long: 210000 tokens > 200000 maximum",
			recovery.Overflow{Input: 210000, Window: 200000}),
		Entry("Anthropic, input and max_tokens",
			"input length and `max_tokens` exceed context limit: 190000 + 16000 > 200000, decrease input length or `max_tokens` and try again",
			recovery.Overflow{Input: 190000, MaxTokens: 16000, Window: 200000}),
		Entry("Anthropic with thousands separators",
			"prompt is too long: 210,000 tokens > 200,000 maximum",
			recovery.Overflow{Input: 210000, Window: 200000}),
		Entry("OpenAI, messages",
			"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.",
			recovery.Overflow{Input: 130000, Window: 128000}),
		Entry("OpenAI, messages and completion",
			"This model's maximum context length is 128000 tokens. However, you requested 140000 tokens (130000 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.",
			recovery.Overflow{Input: 130000, MaxTokens: 10000, Window: 128000}),
		Entry("OpenAI, messages, functions and completion",
			"This model's maximum context length is 8,192 tokens. However, you requested 9,500 tokens (7,000 in the messages, 500 in the functions, and 2,000 in the completion).",
			recovery.Overflow{Input: 7500, MaxTokens: 2000, Window: 8192}),
		Entry("OpenAI, older prompt wording",
			"This model's maximum context length is 4097 tokens, however you requested 4200 tokens (3200 in your prompt; 1000 for the completion). Please reduce your prompt; or completion length.",
			recovery.Overflow{Input: 3200, MaxTokens: 1000, Window: 4097}),
	)

	DescribeTable("messages without overflow numbers",
		func(msg string) {
			got, ok := recovery.ParseOverflow(msg)
			Expect(ok).To(BeFalse())
			Expect(got).To(BeZero())
		},
		Entry("empty", ""),
		Entry("prose only", "Input is too long for requested model."),
		Entry("max_tokens limit", "max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-20250514"),
		Entry("rate limit", "Rate limit reached for gpt-4o: Limit 30000, Used 29500, Requested 900."),
	)
})

func boolPtr(v bool) *bool { return &v }

func tlsUnknownAuthority() error {
	return &url.Error{Op: "Post", URL: "https://api.anthropic.com/v1/messages",
		Err: &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}}
}

var _ = Describe("the text of an API error, as a caller logs it", func() {
	DescribeTable("names the status, the type, the code where there is one, and the message",
		func(e *recovery.APIError, want string) {
			Expect(e.Error()).To(Equal(want))
			// A give-up carries it whole, for the log line an agent prints.
			engine := recovery.New(recovery.ProviderFunc(func(context.Context, recovery.Request) (*recovery.Response, error) { return nil, e }),
				recovery.Classifying(), recovery.WithClock(clock.NewVirtual()))
			_, err := engine.Do(context.Background(), recovery.Request{Model: "m", MaxTokens: 10, Messages: []recovery.Message{{Role: "user", Text: "hi"}}})
			Expect(err).To(MatchError(HaveSuffix(": " + want)))
		},
		Entry("OpenAI's spent quota", &recovery.APIError{StatusCode: 429, Type: "insufficient_quota", Code: "insufficient_quota",
			Message: "You exceeded your current quota"}, "api error 429 insufficient_quota/insufficient_quota: You exceeded your current quota"),
		Entry("OpenAI's bad key", &recovery.APIError{StatusCode: 401, Type: "invalid_request_error", Code: "invalid_api_key",
			Message: "Incorrect API key provided: sk-x."}, "api error 401 invalid_request_error/invalid_api_key: Incorrect API key provided: sk-x."),
		Entry("Anthropic's bad request, which has no code", &recovery.APIError{StatusCode: 400, Type: "invalid_request_error", Message: "max_tokens: required"},
			"api error 400 invalid_request_error: max_tokens: required"),
	)
})
