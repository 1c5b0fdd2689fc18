package recovery_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/recovery"
)

// actionOf runs one turn whose first attempt meets first (every later
// request is answered), and says what the engine did about it: the kind it
// saw and its first decision ("wait 1s", "fallback", "adjust", "compact",
// "escalate", "refresh", "stop STOP", "done").
func actionOf(s recovery.Strategy, first answer) (recovery.Kind, string) {
	n := 0
	p := &fake{script: func(_ int, r recovery.Request) answer {
		n++
		if n == 1 {
			return first
		}
		if r.Purpose == recovery.PurposeRepair {
			return ok(tokens.Text(500))
		}
		return ok("fine")
	}}
	var kind recovery.Kind
	action := ""
	observe := func(e recovery.Event) {
		if action != "" {
			return
		}
		switch e.Type {
		case recovery.EventAttempt:
			if e.Attempt == 1 {
				kind = e.Failure.Kind
			}
		case recovery.EventWait:
			action = fmt.Sprintf("wait %v", e.Wait)
		case recovery.EventFallback, recovery.EventAdjust, recovery.EventCompact, recovery.EventEscalate:
			action = string(e.Type)
		case recovery.EventAuthRefresh:
			action = "refresh"
		case recovery.EventGiveUp:
			g, _ := recovery.AsGiveUp(e.Err)
			action = "stop " + string(g.Stop)
		case recovery.EventDone:
			action = "done"
		}
	}
	e := recovery.New(p, s,
		recovery.WithClock(clock.NewVirtual()),
		recovery.WithRand(rand.New(rand.NewPCG(1, 2))),
		recovery.WithObserver(observe),
		recovery.WithFallbacks("backup"),
		recovery.WithLimits(map[string]recovery.Limits{"m": {ContextWindow: 200000, MaxOutput: 64000}, "backup": {ContextWindow: 200000, MaxOutput: 64000}}),
		recovery.WithAuthRefresh(func(context.Context) error { return nil }),
	)
	_, _ = e.Do(context.Background(), turnOf("m", 16000, 10, 1000))
	return kind, action
}

// apiErr is an answer with an error status whose body is one of the real
// APIs' envelopes, read as an adapter reads it.
func apiErr(status int, body string, header ...string) answer {
	return answer{err: wireError(status, body, header...)}
}

func anthropicBody(typ, msg string) string {
	return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_011CTest"}`, typ, msg)
}

func openAIBody(typ, code, msg string) string {
	c := "null"
	if code != "" {
		c = fmt.Sprintf("%q", code)
	}
	return fmt.Sprintf(`{"error":{"message":%q,"type":%q,"param":null,"code":%s}}`, msg, typ, c)
}

var _ = Describe("what classify does, layer by layer", func() {
	check := func(a answer, kind recovery.Kind, action string) {
		k, act := actionOf(recovery.Classifying(), a)
		Expect(k).To(Equal(kind))
		Expect(act).To(Equal(action))
	}

	DescribeTable("the status, with the API's own envelope",
		check,
		Entry("429 rate_limit_error", apiErr(429, anthropicBody("rate_limit_error", "Number of requests has exceeded your rate limit.")), recovery.KindRateLimit, "wait 1s"),
		Entry("529 overloaded_error", apiErr(529, anthropicBody("overloaded_error", "Overloaded")), recovery.KindOverloaded, "wait 1s"),
		Entry("500 api_error", apiErr(500, anthropicBody("api_error", "Internal server error")), recovery.KindServer, "wait 1s"),
		Entry("502 from a gateway", apiErr(502, openAIBody("server_error", "", "Bad gateway")), recovery.KindServer, "wait 1s"),
		Entry("503", apiErr(503, openAIBody("server_error", "", "The server is overloaded or not ready yet.")), recovery.KindServer, "wait 1s"),
		Entry("504", apiErr(504, anthropicBody("timeout_error", "Gateway timeout")), recovery.KindServer, "wait 1s"),
		Entry("408", apiErr(408, anthropicBody("timeout_error", "Request timed out")), recovery.KindTimeout, "wait 1s"),
		Entry("409 conflict_error", apiErr(409, anthropicBody("conflict_error", "Conflict")), recovery.KindConflict, "wait 1s"),
		Entry("400 invalid_request_error", apiErr(400, anthropicBody("invalid_request_error", "tools.0.input_schema: JSON schema is invalid")), recovery.KindInvalidRequest, "stop not_retryable"),
		Entry("401 authentication_error", apiErr(401, anthropicBody("authentication_error", "invalid x-api-key")), recovery.KindAuth, "refresh"),
		Entry("402 billing_error", apiErr(402, anthropicBody("billing_error", "Your credit balance is too low to access the Anthropic API.")), recovery.KindQuotaExhausted, "stop not_retryable"),
		Entry("403 permission_error", apiErr(403, anthropicBody("permission_error", "Your API key does not have permission to use the specified resource.")), recovery.KindPermission, "stop not_retryable"),
		Entry("404 not_found_error (a model)", apiErr(404, anthropicBody("not_found_error", "model: claude-sonnet-9")), recovery.KindNotFound, "fallback"),
		Entry("413 request_too_large", apiErr(413, anthropicBody("request_too_large", "Request exceeds the maximum allowed number of bytes.")), recovery.KindRequestTooLarge, "stop not_retryable"),
		Entry("422", apiErr(422, openAIBody("invalid_request_error", "", "messages.1.content: field required")), recovery.KindInvalidRequest, "stop not_retryable"),
		Entry("418, unknown", apiErr(418, openAIBody("teapot", "", "I'm a teapot")), recovery.KindUnknown, "wait 1s"),
	)

	DescribeTable("the error's type and code",
		check,
		Entry("OpenAI 429 rate_limit_exceeded", apiErr(429, openAIBody("tokens", "rate_limit_exceeded", "Rate limit reached for gpt-4o on tokens per min (TPM). Please try again in 84ms.")), recovery.KindRateLimit, "wait 1s"),
		Entry("OpenAI 429 insufficient_quota", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "You exceeded your current quota, please check your plan and billing details.")), recovery.KindQuotaExhausted, "stop not_retryable"),
		Entry("Anthropic 429 spend limit", apiErr(429, `{"type":"error","error":{"type":"rate_limit_error","message":"You have reached your specified API usage limits.","details":{"error_code":"enforced_spend_limit_reached"}}}`), recovery.KindQuotaExhausted, "stop not_retryable"),
		Entry("overloaded_error under a 503", apiErr(503, anthropicBody("overloaded_error", "Overloaded")), recovery.KindOverloaded, "wait 1s"),
		Entry("OpenAI context_length_exceeded without numbers", apiErr(400, openAIBody("invalid_request_error", "context_length_exceeded", "Your input exceeds the context window of this model.")), recovery.KindContextOverflow, "compact"),
	)

	DescribeTable("the message's words and numbers",
		check,
		Entry("Anthropic: prompt is too long (compact: the input alone is over)",
			apiErr(400, anthropicBody("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum")), recovery.KindContextOverflow, "compact"),
		Entry("Anthropic: input plus max_tokens over (adjust: the input fits)",
			apiErr(400, anthropicBody("invalid_request_error", "input length and `max_tokens` exceed context limit: 190000 + 16000 > 200000, decrease input length or `max_tokens` and try again")), recovery.KindContextOverflow, "adjust"),
		Entry("OpenAI: messages and completion over (adjust)",
			apiErr(400, openAIBody("invalid_request_error", "context_length_exceeded", "This model's maximum context length is 128000 tokens. However, you requested 140000 tokens (120000 in the messages, 20000 in the completion).")), recovery.KindContextOverflow, "adjust"),
		Entry("a 413 that speaks of the prompt", apiErr(413, anthropicBody("request_too_large", "Prompt is too long for this model")), recovery.KindContextOverflow, "compact"),
		Entry("a 422 from a vLLM-like server", apiErr(422, openAIBody("BadRequestError", "", "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion).")), recovery.KindContextOverflow, "compact"),
		Entry("Anthropic: credit balance too low", apiErr(400, anthropicBody("invalid_request_error", "Your credit balance is too low to access the Anthropic API.")), recovery.KindQuotaExhausted, "stop not_retryable"),
		Entry("a 429 that says quota in prose", apiErr(429, openAIBody("requests", "", "Quota exceeded for this project.")), recovery.KindQuotaExhausted, "stop not_retryable"),
		Entry("max_tokens above the output limit is not an overflow", apiErr(400, anthropicBody("invalid_request_error", "max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-20250514")), recovery.KindInvalidRequest, "stop not_retryable"),
	)

	DescribeTable("the headers",
		check,
		Entry("retry-after in seconds", apiErr(429, anthropicBody("rate_limit_error", "slow down"), "retry-after", "12"), recovery.KindRateLimit, "wait 12s"),
		Entry("retry-after-ms first", apiErr(429, anthropicBody("rate_limit_error", "slow down"), "retry-after-ms", "1500", "retry-after", "2"), recovery.KindRateLimit, "wait 1.5s"),
		Entry("retry-after as an HTTP date", apiErr(429, anthropicBody("rate_limit_error", "slow down"), "retry-after", "Thu, 01 Jan 2026 00:00:08 GMT"), recovery.KindRateLimit, "wait 8s"),
		Entry("retry-after above the 60 s cap", apiErr(429, anthropicBody("rate_limit_error", "slow down"), "retry-after", "3600"), recovery.KindRateLimit, "wait 1m0s"),
		Entry("retry-after just above the cap", apiErr(429, anthropicBody("rate_limit_error", "slow down"), "retry-after", "90"), recovery.KindRateLimit, "wait 1m0s"),
		Entry("Anthropic reset headers, the exhausted window deciding", apiErr(429, anthropicBody("rate_limit_error", "slow down"),
			"anthropic-ratelimit-requests-remaining", "3", "anthropic-ratelimit-requests-reset", "2026-01-01T00:00:02Z",
			"anthropic-ratelimit-tokens-remaining", "0", "anthropic-ratelimit-tokens-reset", "2026-01-01T00:00:09Z"), recovery.KindRateLimit, "wait 9s"),
		Entry("Anthropic reset headers, the exhausted window sooner than an open one", apiErr(429, anthropicBody("rate_limit_error", "slow down"),
			"anthropic-ratelimit-requests-remaining", "3", "anthropic-ratelimit-requests-reset", "2026-01-01T00:00:20Z",
			"anthropic-ratelimit-tokens-remaining", "0", "anthropic-ratelimit-tokens-reset", "2026-01-01T00:00:09Z"), recovery.KindRateLimit, "wait 9s"),
		Entry("OpenAI reset durations", apiErr(429, openAIBody("requests", "rate_limit_exceeded", "Rate limit reached."),
			"x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "6.5s", "x-ratelimit-reset-tokens", "84ms"), recovery.KindRateLimit, "wait 6.5s"),
		Entry("x-should-retry: false on a 5xx", apiErr(503, anthropicBody("api_error", "unavailable"), "x-should-retry", "false"), recovery.KindServer, "stop server_said_no"),
		Entry("x-should-retry: true does not resend a 403", apiErr(403, anthropicBody("permission_error", "try again"), "x-should-retry", "true"), recovery.KindPermission, "stop not_retryable"),
		Entry("x-should-retry: true does not resend a quota 429", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "You exceeded your current quota."), "x-should-retry", "true"), recovery.KindQuotaExhausted, "stop not_retryable"),
		Entry("x-should-retry: true does not resend a 402", apiErr(402, anthropicBody("billing_error", "Your credit balance is too low."), "x-should-retry", "true"), recovery.KindQuotaExhausted, "stop not_retryable"),
		Entry("x-should-retry: true on a 404 still falls back (not a resend)", apiErr(404, anthropicBody("not_found_error", "model: x"), "x-should-retry", "true"), recovery.KindNotFound, "fallback"),
		Entry("x-should-retry: true on a 413 does not resend it", apiErr(413, anthropicBody("request_too_large", "Request exceeds the maximum allowed number of bytes."), "x-should-retry", "true"), recovery.KindRequestTooLarge, "stop not_retryable"),
		Entry("x-should-retry: true never resends a rejected content", apiErr(400, anthropicBody("invalid_request_error", "bad schema"), "x-should-retry", "true"), recovery.KindInvalidRequest, "stop not_retryable"),
		Entry("x-should-retry: false does not stop a repair", apiErr(400, anthropicBody("invalid_request_error", "input length and `max_tokens` exceed context limit: 190000 + 16000 > 200000"), "x-should-retry", "false"), recovery.KindContextOverflow, "adjust"),
	)

	DescribeTable("the transport error's cause chain",
		check,
		Entry("connection reset", answer{err: connReset()}, recovery.KindConnection, "wait 1s"),
		Entry("connection refused", answer{err: connRefused()}, recovery.KindConnection, "wait 1s"),
		Entry("broken pipe", answer{err: brokenPipe()}, recovery.KindConnection, "wait 1s"),
		Entry("stream cut: unexpected EOF", answer{err: fmt.Errorf("anthropic: stream: %w", io.ErrUnexpectedEOF)}, recovery.KindConnection, "wait 1s"),
		Entry("read timeout", answer{err: readTimeout()}, recovery.KindTimeout, "wait 1s"),
		Entry("the attempt's own deadline", answer{err: fmt.Errorf("anthropic: %w", context.DeadlineExceeded)}, recovery.KindTimeout, "wait 1s"),
		Entry("TLS: unknown authority", answer{err: tlsUnknownAuthority()}, recovery.KindConnection, "wait 1s"),
		Entry("DNS failure", answer{err: noSuchHost()}, recovery.KindConnection, "wait 1s"),
		Entry("connection aborted", answer{err: &net.OpError{Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNABORTED}}}, recovery.KindConnection, "wait 1s"),
	)

	DescribeTable("answers (HTTP 200)",
		check,
		Entry("end_turn with text", ok("Paris."), recovery.KindOK, "done"),
		Entry("max_tokens", cut(4096), recovery.KindTruncated, "escalate"),
		Entry("OpenAI length", answer{resp: &recovery.Response{Text: "The", StopReason: "length", OutputTokens: 4096}}, recovery.KindTruncated, "escalate"),
		Entry("refusal", answer{resp: &recovery.Response{StopReason: "refusal"}}, recovery.KindRefusal, "stop not_retryable"),
		Entry("empty", answer{resp: &recovery.Response{StopReason: "end_turn"}}, recovery.KindEmptyResponse, "wait 1s"),
		Entry("OpenAI stop, empty", answer{resp: &recovery.Response{StopReason: "stop"}}, recovery.KindEmptyResponse, "wait 1s"),
	)

	It("stops a 401 that says x-should-retry: true when there is no refresh to make", func() {
		s := recovery.Classifying()
		s.Auth = recovery.AuthStop
		k, act := actionOf(s, apiErr(401, anthropicBody("authentication_error", "invalid x-api-key"), "x-should-retry", "true"))
		Expect(k).To(Equal(recovery.KindAuth))
		Expect(act).To(Equal("stop auth"))
	})

	It("stops a 404 that says x-should-retry: true when there is no fallback on it", func() {
		s := recovery.Classifying()
		s.Fallback.On = nil
		k, act := actionOf(s, apiErr(404, anthropicBody("not_found_error", "model: x"), "x-should-retry", "true"))
		Expect(k).To(Equal(recovery.KindNotFound))
		Expect(act).To(Equal("stop not_retryable"))
	})

	It("resends, on x-should-retry: true, a 5xx its status list leaves out", func() {
		s := recovery.Classifying()
		s.RetryStatuses = []int{500}
		_, act := actionOf(s, apiErr(501, anthropicBody("api_error", "not implemented")))
		Expect(act).To(Equal("stop not_retryable"))
		_, act = actionOf(s, apiErr(501, anthropicBody("api_error", "not implemented"), "x-should-retry", "true"))
		Expect(act).To(Equal("wait 1s"))
		_, act = actionOf(s, apiErr(429, anthropicBody("rate_limit_error", "slow down")))
		Expect(act).To(Equal("stop not_retryable"), "the status list narrows 4xx as well as 5xx")
	})

	It("resends a permanent failure on x-should-retry: true only with ShouldRetryPermanent", func() {
		s := recovery.Classifying()
		s.ShouldRetryPermanent = true
		_, act := actionOf(s, apiErr(403, anthropicBody("permission_error", "try again"), "x-should-retry", "true"))
		Expect(act).To(Equal("wait 1s"))
	})

	It("counts a cancelled attempt as cancelled and stops", func() {
		k, act := actionOf(recovery.Classifying(), answer{err: fmt.Errorf("x: %w", context.Canceled)})
		Expect(k).To(Equal(recovery.KindCancelled))
		Expect(act).To(Equal("stop cancelled"))
	})

})
