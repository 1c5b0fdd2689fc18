package recovery_test

import (
	"io"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery"
)

// The decision tables of the products' own retry code (Codex, the Vercel
// AI SDK, LangChain.js), and what Claude Code was measured doing.
var _ = Describe("the agents' and frameworks' decision tables", func() {
	decide := func(s recovery.Strategy, a answer, want string) {
		_, act := actionOf(s, a)
		if want == "wait" {
			act, _, _ = strings.Cut(act, " ")
		}
		Expect(act).To(Equal(want))
	}
	rateLimited := func(header ...string) answer {
		return apiErr(429, anthropicBody("rate_limit_error", "r"), header...)
	}
	overMax := apiErr(400, anthropicBody("invalid_request_error",
		"max_tokens: 128000 > 64000, which is the maximum allowed number of output tokens for claude-test"))

	DescribeTable("codex (codex-rs model_provider_info.rs, codex-client retry.rs, api_bridge.rs)",
		func(a answer, want string) { decide(recovery.Codex(), a, want) },
		Entry("503: the HTTP layer resends a 5xx", apiErr(503, openAIBody("server_error", "", "x")), "wait"),
		Entry("500 (InternalServerError)", apiErr(500, openAIBody("server_error", "", "x")), "wait"),
		Entry("529", apiErr(529, anthropicBody("overloaded_error", "o")), "wait"),
		Entry("429 (retry_429: false, then RetryLimit: not retryable)", rateLimited(), "stop not_retryable"),
		Entry("429 with retry-after: still not retried", rateLimited("retry-after", "5"), "stop not_retryable"),
		Entry("a quota 429", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "quota")), "stop not_retryable"),
		Entry("400 (InvalidRequest)", apiErr(400, openAIBody("invalid_request_error", "", "bad")), "stop not_retryable"),
		Entry("a context overflow (ContextWindowExceeded)", apiErr(400, openAIBody("invalid_request_error", "context_length_exceeded", "too long")), "stop not_retryable"),
		Entry("401 (UnexpectedStatus: a new round)", apiErr(401, openAIBody("invalid_request_error", "invalid_api_key", "x")), "wait"),
		Entry("408 (not a 5xx: a new round)", apiErr(408, openAIBody("timeout", "", "t")), "wait"),
		Entry("a connection reset (retry_transport)", answer{err: connReset()}, "wait"),
		Entry("a stream cut after its 200 (Stream: a new round)", answer{err: midStream(io.ErrUnexpectedEOF)}, "wait"),
		Entry("x-should-retry: false is not read", apiErr(503, openAIBody("server_error", "", "x"), "x-should-retry", "false"), "wait"),
		Entry("an empty answer", answer{resp: &recovery.Response{StopReason: "end_turn"}}, "stop not_retryable"),
		Entry("a truncated answer is handed back", cut(4096), "done"),
	)

	It("codex: a persistent 503 gives 6 rounds of 5 attempts, 30 in all, as measured", func() {
		o := play(recovery.Codex(), small(), always(status(503, "server_error", "Service Unavailable")))
		Expect(o.sent).To(HaveLen(30))
		Expect(o.stop()).To(Equal(recovery.StopAttempts))
		Expect(o.models()).To(HaveEach("m"), "no fallback")
		// Within a round 200, 400, 800, 1600 ms; between rounds 200 ms·2^r.
		var want []time.Duration
		for r := range 6 {
			for i := range 4 {
				want = append(want, 200*time.Millisecond<<i)
			}
			if r < 5 {
				want = append(want, 200*time.Millisecond<<r)
			}
		}
		Expect(o.waits).To(HaveLen(len(want)))
		for i, w := range o.waits {
			Expect(w).To(BeNumerically("~", want[i], want[i]/10), "wait %d: ×U(0.9, 1.1)", i)
		}
	})

	It("codex: a stream cut after its 200 every time is sent 6 times, one a round", func() {
		o := play(recovery.Codex(), small(), always(answer{err: midStream(io.ErrUnexpectedEOF)}))
		Expect(o.sent).To(HaveLen(6))
		Expect(o.stop()).To(Equal(recovery.StopNotRetryable))
	})

	DescribeTable("ai-sdk (vercel/ai retry-with-exponential-backoff.ts)",
		func(a answer, want string) { decide(recovery.AISDK(), a, want) },
		Entry("429: 2 s", rateLimited(), "wait 2s"),
		Entry("retry-after: 5", rateLimited("retry-after", "5"), "wait 5s"),
		Entry("retry-after-ms first", rateLimited("retry-after-ms", "1500", "retry-after", "9"), "wait 1.5s"),
		Entry("retry-after: 59, under a minute", rateLimited("retry-after", "59"), "wait 59s"),
		Entry("retry-after: 60 is not reasonable: the backoff", rateLimited("retry-after", "60"), "wait 2s"),
		Entry("retry-after: 3600: the backoff", rateLimited("retry-after", "3600"), "wait 2s"),
		Entry("408", apiErr(408, anthropicBody("timeout_error", "t")), "wait 2s"),
		Entry("409", apiErr(409, anthropicBody("conflict_error", "c")), "wait 2s"),
		Entry("501: every 5xx", apiErr(501, anthropicBody("api_error", "x")), "wait 2s"),
		Entry("a quota 429: only the status is read", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "quota")), "wait 2s"),
		Entry("x-should-retry: false is not read", apiErr(503, anthropicBody("api_error", "x"), "x-should-retry", "false"), "wait 2s"),
		Entry("a failed fetch", answer{err: connReset()}, "wait 2s"),
		Entry("401", apiErr(401, anthropicBody("authentication_error", "x")), "stop auth"),
		Entry("400", apiErr(400, anthropicBody("invalid_request_error", "x")), "stop not_retryable"),
		Entry("418", apiErr(418, anthropicBody("teapot", "x")), "stop not_retryable"),
		Entry("a stream cut after its 200", answer{err: midStream(io.ErrUnexpectedEOF)}, "stop not_retryable"),
		Entry("a truncated answer is handed back", cut(4096), "done"),
	)

	It("ai-sdk: 3 attempts, 2 s then 4 s", func() {
		o := play(recovery.AISDK(), small(), always(overloaded))
		Expect(o.sent).To(HaveLen(3))
		Expect(o.waits).To(Equal([]time.Duration{2 * time.Second, 4 * time.Second}))
		Expect(o.stop()).To(Equal(recovery.StopAttempts))
	})

	DescribeTable("langchain-js (langchainjs async_caller.ts, p-retry's defaults)",
		func(a answer, want string) { decide(recovery.LangChainJS(), a, want) },
		Entry("429", rateLimited(), "wait"),
		Entry("retry-after is not read", rateLimited("retry-after", "30"), "wait"),
		Entry("500", apiErr(500, openAIBody("server_error", "", "x")), "wait"),
		Entry("529", apiErr(529, anthropicBody("overloaded_error", "o")), "wait"),
		Entry("413: not in STATUS_NO_RETRY", apiErr(413, anthropicBody("request_too_large", "x")), "wait"),
		Entry("422: not in STATUS_NO_RETRY", apiErr(422, openAIBody("invalid_request_error", "", "x")), "wait"),
		Entry("418", apiErr(418, anthropicBody("teapot", "x")), "wait"),
		Entry("a connection reset", answer{err: connReset()}, "wait"),
		Entry("408: in STATUS_NO_RETRY", apiErr(408, anthropicBody("timeout_error", "t")), "stop not_retryable"),
		Entry("409: in STATUS_NO_RETRY", apiErr(409, anthropicBody("conflict_error", "c")), "stop not_retryable"),
		Entry("400", apiErr(400, anthropicBody("invalid_request_error", "x")), "stop not_retryable"),
		Entry("401", apiErr(401, anthropicBody("authentication_error", "x")), "stop auth"),
		Entry("404", apiErr(404, anthropicBody("not_found_error", "x")), "stop not_retryable"),
		Entry("insufficient_quota", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "quota")), "stop not_retryable"),
		Entry("a stream cut after it began", answer{err: midStream(io.ErrUnexpectedEOF)}, "stop not_retryable"),
		Entry("a truncated answer is handed back", cut(4096), "done"),
	)

	It("langchain-js: 7 attempts, each wait 1 s·2^n × U(1, 2), uncapped", func() {
		o := play(recovery.LangChainJS(), small(), always(status(503, "api_error", "x")))
		Expect(o.sent).To(HaveLen(7))
		Expect(o.waits).To(HaveLen(6))
		for i, w := range o.waits {
			lo := time.Second << i
			Expect(w).To(BeNumerically(">=", lo), "wait %d", i)
			Expect(w).To(BeNumerically("<", 2*lo), "wait %d", i)
		}
	})

	It("claude-code adds 0–25 % to the server's wait, as measured (2 s → 2,377 / 2,487 / 2,389 ms)", func() {
		o := play(recovery.ClaudeCode(), small(), thenOK(3, rateLimited("retry-after", "2")))
		Expect(o.sent).To(HaveLen(4))
		Expect(o.waits).To(HaveLen(3))
		for _, w := range o.waits {
			Expect(w).To(BeNumerically(">=", 2*time.Second))
			Expect(w).To(BeNumerically("<=", 2500*time.Millisecond))
		}
		Expect(o.waits).NotTo(HaveEach(2*time.Second), "jittered, not exact")
		again := play(recovery.ClaudeCode(), small(), thenOK(3, rateLimited("retry-after", "2")))
		Expect(again.waits).To(Equal(o.waits), "the same seed, the same waits")
	})

	It("claude-code reads retry-after as whole seconds, then adds 0–25 %", func() {
		for _, c := range []struct {
			value string
			least time.Duration
		}{{"12", 12 * time.Second}, {"1.5", time.Second}} {
			_, act := actionOf(recovery.ClaudeCode(), rateLimited("retry-after", c.value))
			wait, err := time.ParseDuration(strings.TrimPrefix(act, "wait "))
			Expect(err).NotTo(HaveOccurred(), act)
			Expect(wait).To(BeNumerically(">=", c.least), c.value)
			Expect(wait).To(BeNumerically("<=", c.least*5/4), c.value)
		}
	})

	It("claude-code clamps an over-large max_tokens to the model's maximum and resends at once", func() {
		o := play(recovery.ClaudeCode(), turnOf("m", 128000, 4, 100), func(_ int, r recovery.Request) answer {
			if r.MaxTokens > 64000 {
				return overMax
			}
			return ok("fits")
		})
		Expect(o.err).NotTo(HaveOccurred())
		Expect(o.sent).To(HaveLen(2))
		Expect(o.sent[1].MaxTokens).To(Equal(64000))
		Expect(o.waits).To(BeEmpty(), "at once")
		Expect(o.count(recovery.EventAdjust)).To(Equal(1))
		// classify does not clamp: the 400 stops it.
		Expect(play(recovery.Classifying(), turnOf("m", 128000, 4, 100), always(overMax)).stop()).To(Equal(recovery.StopNotRetryable))
	})

	It("claude-code switches to a fallback after 3×529 only when one is offered", func() {
		o := play(recovery.ClaudeCode(), small(), always(overloaded), recovery.WithFallbacks())
		Expect(o.models()).To(HaveEach("m"))
		Expect(o.sent).To(HaveLen(11))
	})
})
