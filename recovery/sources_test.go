package recovery_test

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/loopguard"
)

// Each preset replays its source's own decision table: the status, the
// headers and the message of a first failure, and the first thing the
// preset does about it. "wait" alone stands for a jittered backoff wait,
// whose exact value the backoff tests pin.
var _ = Describe("each preset's decision table, as its source gives it", func() {
	decide := func(s recovery.Strategy, a answer, want string) {
		_, act := actionOf(s, a)
		if want == "wait" {
			act, _, _ = strings.Cut(act, " ")
		}
		Expect(act).To(Equal(want))
	}
	exceed := func(input, max, window int) answer {
		return apiErr(400, anthropicBody("invalid_request_error", "input length and `max_tokens` exceed context limit: "+
			strconv.Itoa(input)+" + "+strconv.Itoa(max)+" > "+strconv.Itoa(window)+", decrease input length or `max_tokens` and try again"))
	}

	DescribeTable("claude-code (claude-code-fault-tolerance §13.2.1, §13.3.1, §13.7, §13.11)",
		func(a answer, want string) { decide(recovery.ClaudeCode(), a, want) },
		Entry("529 overloaded_error, even with x-should-retry: false", apiErr(529, anthropicBody("overloaded_error", "Overloaded"), "x-should-retry", "false"), "wait"),
		Entry("503 with x-should-retry: false (an external user: no 5xx override)", apiErr(503, anthropicBody("api_error", "x"), "x-should-retry", "false"), "stop server_said_no"),
		Entry("403 with x-should-retry: true", apiErr(403, anthropicBody("permission_error", "no"), "x-should-retry", "true"), "wait"),
		Entry("400 invalid with x-should-retry: true", apiErr(400, anthropicBody("invalid_request_error", "bad schema"), "x-should-retry", "true"), "wait"),
		Entry("403 without the header", apiErr(403, anthropicBody("permission_error", "no")), "stop not_retryable"),
		Entry("401: clear the credential and retry", apiErr(401, anthropicBody("authentication_error", "invalid x-api-key")), "wait"),
		Entry("408", apiErr(408, anthropicBody("timeout_error", "t")), "wait"),
		Entry("409", apiErr(409, anthropicBody("conflict_error", "c")), "wait"),
		Entry("429", apiErr(429, anthropicBody("rate_limit_error", "r")), "wait"),
		Entry("a quota 429 (an API-key user)", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "quota")), "wait"),
		Entry("501: every 5xx", apiErr(501, anthropicBody("api_error", "x")), "wait"),
		Entry("418: anything else is not retried", apiErr(418, anthropicBody("teapot", "x")), "stop not_retryable"),
		Entry("a connection reset", answer{err: connReset()}, "wait"),
		Entry("an empty answer is not retried", answer{resp: &recovery.Response{StopReason: "end_turn"}}, "stop not_retryable"),
		// The server's wait plus 0–25 %: the exact figures are pinned in
		// sources_agents_test.go.
		Entry("retry-after: 12", apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after", "12"), "wait"),
		Entry("retry-after: 1.5 is parseInt'd to 1 s", apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after", "1.5"), "wait"),
		Entry("retry-after-ms is not read: the backoff", apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after-ms", "7000"), "wait"),
		Entry("an HTTP date is not read: the backoff", apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after", "Thu, 01 Jan 2026 00:00:08 GMT"), "wait"),
		Entry("input and max_tokens over, room above the floor: adjust", exceed(190000, 16000, 200000), "adjust"),
		Entry("input and max_tokens over, room below the 3,000 floor: throw", exceed(197000, 16000, 200000), "stop not_retryable"),
		Entry("prompt is too long: no room, no compaction", apiErr(400, anthropicBody("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum")), "stop not_retryable"),
		Entry("max_tokens: a truncated answer is handed back", cut(4096), "done"),
	)

	DescribeTable("kimi-code (kimi-code-turn-convergence, step 内重试 and 上下文溢出)",
		func(a answer, want string) { decide(recovery.KimiCode(), a, want) },
		Entry("429", apiErr(429, anthropicBody("rate_limit_error", "r")), "wait"),
		Entry("529", apiErr(529, anthropicBody("overloaded_error", "o")), "wait"),
		Entry("503 with x-should-retry: false: the header is not read", apiErr(503, anthropicBody("api_error", "x"), "x-should-retry", "false"), "wait"),
		Entry("501: not in 408 409 429 500 502 503 504 529", apiErr(501, anthropicBody("api_error", "x")), "stop not_retryable"),
		Entry("a quota 429 is never retried", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "quota")), "stop not_retryable"),
		Entry("request_too_large, a small request", apiErr(413, anthropicBody("request_too_large", "too large")), "stop not_retryable"),
		Entry("an overflow goes to compaction", apiErr(400, anthropicBody("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum")), "compact"),
		Entry("a recoverable 401 refreshes", apiErr(401, anthropicBody("authentication_error", "x")), "refresh"),
		Entry("an empty answer is retried", answer{resp: &recovery.Response{StopReason: "end_turn"}}, "wait"),
		Entry("unknown is never retried", apiErr(418, anthropicBody("teapot", "x")), "stop not_retryable"),
		Entry("retry-after obeyed", apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after", "7"), "wait 7s"),
	)

	DescribeTable("s11 (s11-error-recovery-kotlin, ErrorClassifier and ModelFallback)",
		func(a answer, want string) { decide(recovery.S11(), a, want) },
		Entry("401: permanent, next model", apiErr(401, anthropicBody("authentication_error", "x")), "fallback"),
		Entry("403: permanent, next model", apiErr(403, anthropicBody("permission_error", "x")), "fallback"),
		Entry("404: permanent, next model", apiErr(404, anthropicBody("not_found_error", "x")), "fallback"),
		Entry("400 invalid: permanent, next model", apiErr(400, anthropicBody("invalid_request_error", "x")), "fallback"),
		Entry("an overflow is an invalid request", apiErr(400, anthropicBody("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum")), "fallback"),
		Entry("429: transient, 500 ms", apiErr(429, anthropicBody("rate_limit_error", "r")), "wait 500ms"),
		Entry("retry-after is not read", apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after", "30"), "wait 500ms"),
		Entry("a quota error: any other type is transient", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "quota")), "wait 500ms"),
		Entry("413: any other type is transient", apiErr(413, anthropicBody("request_too_large", "x")), "wait 500ms"),
		Entry("418 unknown: transient", apiErr(418, anthropicBody("teapot", "x")), "wait 500ms"),
		Entry("x-should-retry: false is not read", apiErr(503, anthropicBody("api_error", "x"), "x-should-retry", "false"), "wait 500ms"),
		Entry("max_tokens: escalate", cut(4096), "escalate"),
	)

	for _, s := range []recovery.Strategy{recovery.SDKAnthropic(), recovery.SDKOpenAI()} {
		DescribeTable(s.Name+" (the SDK's requestconfig retry)",
			func(a answer, want string) { decide(s, a, want) },
			Entry("403 with x-should-retry: true", apiErr(403, anthropicBody("permission_error", "x"), "x-should-retry", "true"), "wait"),
			Entry("400 with x-should-retry: true", apiErr(400, anthropicBody("invalid_request_error", "x"), "x-should-retry", "true"), "wait"),
			Entry("529 with x-should-retry: false", apiErr(529, anthropicBody("overloaded_error", "x"), "x-should-retry", "false"), "stop server_said_no"),
			Entry("401", apiErr(401, anthropicBody("authentication_error", "x")), "stop auth"),
			Entry("a quota 429: only the status is read", apiErr(429, openAIBody("insufficient_quota", "insufficient_quota", "quota")), "wait"),
			Entry("501", apiErr(501, anthropicBody("api_error", "x")), "wait"),
			Entry("418", apiErr(418, anthropicBody("teapot", "x")), "stop not_retryable"),
			Entry("retry-after-ms first", apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after-ms", "1500", "retry-after", "9"), "wait 1.5s"),
			Entry("retry-after: 90", apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after", "90"), "wait 1m30s"),
			Entry("max_tokens: handed back", cut(4096), "done"),
			Entry("a stream cut after its 200: the stream had begun", answer{err: midStream(io.ErrUnexpectedEOF)}, "stop not_retryable"),
			Entry("an overloaded_error event in a stream", answer{err: midStream(wireError(200, anthropicBody("overloaded_error", "Overloaded")))}, "stop not_retryable"),
			Entry("the same cut before the status came", answer{err: io.ErrUnexpectedEOF}, "wait"),
		)
	}

	It("classify resends a stream that broke after it began, as its kind says", func() {
		decide(recovery.Classifying(), answer{err: midStream(io.ErrUnexpectedEOF)}, "wait")
		decide(recovery.Classifying(), answer{err: midStream(wireError(200, anthropicBody("overloaded_error", "Overloaded")))}, "wait")
	})

	It("sdk-anthropic waits an hour when told; sdk-openai gives up above 2 minutes", func() {
		hour := apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after", "3600")
		decide(recovery.SDKAnthropic(), hour, "wait 1h0m0s")
		decide(recovery.SDKOpenAI(), hour, "stop retry_after_above_cap")
		decide(recovery.SDKOpenAI(), apiErr(429, anthropicBody("rate_limit_error", "r"), "retry-after", "120"), "wait 2m0s")
	})

	It("claude-code's adjustment spends an attempt of the step, and one at the last attempt stops", func() {
		s := recovery.ClaudeCode()
		s.Attempts = 2
		over := exceed(10000, 16000, 20000)
		req := turnOf("m", 16000, 4, 100)
		o := play(s, req, func(n int, _ recovery.Request) answer {
			if n == 1 {
				return status(500, "api_error", "x")
			}
			return over
		}, recovery.WithLimits(map[string]recovery.Limits{"m": {ContextWindow: 200000, MaxOutput: 64000}}))
		Expect(o.sent).To(HaveLen(2), "the 500 and the overflow use both attempts: no adjusted third")
		Expect(o.stop()).To(Equal(recovery.StopAttempts))
		o = play(recovery.ClaudeCode(), req, thenOK(1, over))
		Expect(o.res.Adjustments).To(Equal(1))
		Expect(o.sent[1].MaxTokens).To(Equal(20000 - 10000 - 1000))
	})

	It("s11 sends an escalation above the model's limit, goes back on its failure and moves on", func() {
		o := play(recovery.S11(), turnOf("m", 16000, 4, 100), func(_ int, r recovery.Request) answer {
			if r.MaxTokens > 16000 {
				return apiErr(400, anthropicBody("invalid_request_error", "max_tokens: 32000 > 16000, which is the maximum allowed number of output tokens"))
			}
			return cut(r.MaxTokens)
		}, recovery.WithLimits(map[string]recovery.Limits{"m": {ContextWindow: 200000, MaxOutput: 16000}, "backup": {ContextWindow: 200000, MaxOutput: 16000}}))
		Expect(o.sent[1].MaxTokens).To(Equal(32000), "bounded by the 32,768 ceiling alone")
		Expect(o.sent[2].Model).To(Equal("backup"))
		Expect(o.sent[2].MaxTokens).To(Equal(16000), "back to the original after the failed escalation")
	})

	It("s11's escalation is one more attempt of the step", func() {
		o := play(recovery.S11(), small(), func(n int, r recovery.Request) answer {
			switch {
			case r.Model == "backup":
				return ok("backup")
			case n == 1:
				return cut(r.MaxTokens)
			}
			return status(529, "overloaded_error", "o")
		})
		Expect(o.models()).To(Equal([]string{"m", "m", "m", "backup"}))
	})

	It("kimi-code learns 0.85 × its own estimate on an overflow, whatever the message says", func() {
		req := turnOf("m", 1000, 20, 1000)
		est := recovery.CountTokens(req)
		var repair recovery.Request
		script := func(n int, r recovery.Request) answer {
			if r.Purpose == recovery.PurposeRepair {
				repair = r
				return ok(tokens.Text(300))
			}
			if n == 1 {
				return apiErr(400, anthropicBody("invalid_request_error", "prompt is too long: 300000 tokens > 190000 maximum"))
			}
			return ok("fits")
		}
		o := play(recovery.KimiCode(), req, script)
		Expect(o.err).NotTo(HaveOccurred())
		learnt := int(0.85 * float64(est))
		used := recovery.CountTokens(repair) + repair.MaxTokens
		Expect(used).To(BeNumerically("<=", learnt), "the summary request is planned against the learnt window")
		Expect(used).To(BeNumerically(">", learnt-1200), "and trimmed no further than one message below it")
	})

	// The layered agent fault-tolerance demo's second layer (Agent 循环容错)
	// as a table: the tool calls of a turn, each "tool args -> result", and
	// what classify's loop guard says after the last one.
	DescribeTable("classify's loop guard (the layered agent fault-tolerance demo, Agent 循环容错)",
		func(calls []string, want string) {
			g := loopguard.New(recovery.Classifying().LoopGuard.Config)
			var v loopguard.Verdict
			for _, c := range calls {
				call, result, _ := strings.Cut(c, " -> ")
				name, args, _ := strings.Cut(call, " ")
				fp, err := loopguard.Of(name, []byte(args))
				Expect(err).NotTo(HaveOccurred())
				v = g.Observe(fp, result)
				if v.Level == loopguard.Break {
					break
				}
			}
			got := v.Level.String()
			if v.Level != loopguard.None {
				got += " " + string(v.Detector)
			}
			Expect(got).To(Equal(want))
		},
		Entry("same call, same result, twice: an immediate circuit-breaker, no warning first",
			[]string{`test {"p":1} -> FAIL`, `test {"p":1} -> FAIL`}, "break no_progress"),
		Entry("the same twice after other calls in between: still no new information",
			[]string{`test {"p":1} -> FAIL`, `read {"f":"a"} -> x`, `test {"p":1} -> FAIL`}, "break no_progress"),
		Entry("key order is not a new call (stableStringify)",
			[]string{`weather {"city":"北京","unit":"c"} -> 晴`, `weather {"unit":"c","city":"北京"} -> 晴`}, "break no_progress"),
		Entry("same call, new results: warned at warnThreshold = 3",
			[]string{`poll {} -> 1`, `poll {} -> 2`, `poll {} -> 3`}, "warn repeat"),
		Entry("same call, new results: broken at the higher threshold (5, the demo gives none)",
			[]string{`poll {} -> 1`, `poll {} -> 2`, `poll {} -> 3`, `poll {} -> 4`, `poll {} -> 5`}, "break repeat"),
		Entry("two calls alternating, new results: warned at 3 cycles",
			[]string{`w {"c":"北京"} -> 1`, `w {"c":"上海"} -> 2`, `w {"c":"北京"} -> 3`, `w {"c":"上海"} -> 4`, `w {"c":"北京"} -> 5`, `w {"c":"上海"} -> 6`}, "warn ping_pong"),
		Entry("with 19 other calls between, the first has left the window of N = 20",
			append(append([]string{`test {"p":1} -> FAIL`}, otherCalls(19)...), `test {"p":1} -> FAIL`), "none"),
		Entry("with 18 between, it is still in it",
			append(append([]string{`test {"p":1} -> FAIL`}, otherCalls(18)...), `test {"p":1} -> FAIL`), "break no_progress"),
	)

	It("classify stops an agent turn at the demo's MAX_STEPS of 15 (硬性步数上限)", func() {
		f := &fake{script: func(n int, _ recovery.Request) answer { return toolUse(fmt.Sprintf(`read {"page":%d}`, n)) }}
		var events []recovery.Event
		res, err := agentEngine(f, recovery.Classifying(), &events).RunAgent(context.Background(), turnOf("m", 1000, 1, 100), echoTool)
		Expect(err).To(MatchError(recovery.ErrAborted))
		Expect(res.Detector).To(Equal(recovery.DetectorStepCap))
		Expect(res.Steps).To(Equal(15))
	})
})

// midStream is how a Provider reports a streamed answer that failed after
// its status came.
func midStream(cause error) error {
	return fmt.Errorf("%w: %w", recovery.ErrStreamBroken, cause)
}

// otherCalls returns n tool calls, each with its own arguments.
func otherCalls(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(`read {"page":%d} -> page %d`, i, i)
	}
	return out
}
