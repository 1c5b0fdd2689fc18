package mockllm_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// stopped is a clock that tells the time but never waits: an answer that
// takes virtual time stays in flight until the spec advances the clock.
type stopped struct{ v *clock.Virtual }

func (s stopped) Now() time.Time { return s.v.Now() }

// quotaScenario is the spec scenario whose sonnet has the given quotas,
// capacity and speed.
func quotaScenario(l scenario.RateLimits, c scenario.Capacity, sp scenario.Speed, script ...scenario.Rule) *scenario.Scenario {
	sc := newScenario(script...)
	m := sc.Models["sonnet"]
	m.Limits, m.Capacity, m.Speed = l, c, sp
	sc.Models["sonnet"] = m
	return sc
}

func toOpenAI(session string) call {
	return call{path: "/" + scName + "/v1/chat/completions", session: session}
}

// openaiAsk is a Chat Completions body: one user message of input tokens.
func openaiAsk(model string, maxTokens, input int) string {
	var m map[string]any
	Expect(json.Unmarshal([]byte(ask(model, maxTokens, input)), &m)).To(Succeed())
	m["max_completion_tokens"] = m["max_tokens"]
	delete(m, "max_tokens")
	b, err := json.Marshal(m)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

func hdr(w *httptest.ResponseRecorder, k string) string { return w.Header().Get(k) }

var _ = Describe("Quotas", func() {
	var (
		clk *clock.Virtual
		srv *mockllm.Server
	)
	BeforeEach(func() { clk = clock.NewVirtual() })

	serve := func(sc *scenario.Scenario) {
		srv = mockllm.New([]*scenario.Scenario{sc}, stopped{clk})
	}

	Context("requests per minute", func() {
		BeforeEach(func() { serve(quotaScenario(scenario.RateLimits{RPM: 3}, scenario.Capacity{}, scenario.Speed{})) })

		It("admits a full bucket, then refuses with 429 naming the limit and the refill time", func() {
			for remaining := 2; remaining >= 0; remaining-- {
				w := to("a").send(srv, ask("sonnet", 100, 10))
				Expect(w.Code).To(Equal(http.StatusOK))
				Expect(hdr(w, "anthropic-ratelimit-requests-limit")).To(Equal("3"))
				Expect(hdr(w, "anthropic-ratelimit-requests-remaining")).To(Equal(itoa(remaining)))
			}
			w := to("a").send(srv, ask("sonnet", 100, 10))
			Expect(w.Code).To(Equal(http.StatusTooManyRequests))
			e := errorOf(w)
			Expect(e.Error.Type).To(Equal("rate_limit_error"))
			Expect(e.Error.Message).To(ContainSubstring("rate limit of 3 requests per minute"))
			Expect(hdr(w, "retry-after")).To(Equal("20")) // one request refills in 60s / 3
			Expect(hdr(w, "anthropic-ratelimit-requests-remaining")).To(Equal("0"))
			// Full again 60s after the first three requests were paid.
			Expect(hdr(w, "anthropic-ratelimit-requests-reset")).To(Equal(clock.Epoch.Add(time.Minute).Format(time.RFC3339)))
		})

		It("refills continuously: the wait it asked for is enough, and a second less is not", func() {
			statuses(srv, to("a"), ask("sonnet", 100, 10), 3)
			clk.Advance(19 * time.Second)
			w := to("a").send(srv, ask("sonnet", 100, 10))
			Expect(w.Code).To(Equal(http.StatusTooManyRequests))
			Expect(hdr(w, "retry-after")).To(Equal("1"))
			clk.Advance(time.Second)
			Expect(to("a").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(http.StatusOK))
		})

		It("is shared by every session of the scenario, as one organisation's key", func() {
			Expect(statuses(srv, to("a"), ask("sonnet", 100, 10), 2)).To(Equal([]int{200, 200}))
			Expect(statuses(srv, to("b"), ask("sonnet", 100, 10), 2)).To(Equal([]int{200, 429}))
		})

		It("gives a session opened by the harness buckets of its own", func() {
			Expect(srv.Open(scName, "run1", clock.NewVirtual())).To(Succeed())
			Expect(srv.Open(scName, "run2", clock.NewVirtual())).To(Succeed())
			Expect(statuses(srv, to("run1"), ask("sonnet", 100, 10), 4)).To(Equal([]int{200, 200, 200, 429}))
			Expect(statuses(srv, to("run2"), ask("sonnet", 100, 10), 4)).To(Equal([]int{200, 200, 200, 429}))
		})

		It("journals a refusal with the wait it asked for", func() {
			statuses(srv, to("a"), ask("sonnet", 100, 10), 4)
			es := srv.Entries(scName, "a")
			Expect(es).To(HaveLen(4))
			Expect(es[3].Status).To(Equal(429))
			Expect(es[3].Kind).To(Equal("rate_limit"))
			Expect(es[3].RetryAfterMS).To(HaveValue(Equal(int64(20000))))
		})

		It("lets a scripted error answer first, without paying", func() {
			serve(quotaScenario(scenario.RateLimits{RPM: 1}, scenario.Capacity{}, scenario.Speed{},
				rule(scenario.When{Attempt: 1}, status(503))))
			w := to("a").send(srv, ask("sonnet", 100, 10))
			Expect(w.Code).To(Equal(http.StatusServiceUnavailable))
			Expect(hdr(w, "anthropic-ratelimit-requests-remaining")).To(Equal("1"))
			Expect(statuses(srv, to("a"), ask("sonnet", 100, 10), 2)).To(Equal([]int{200, 429}))
		})

		It("rate-limits a rule's normal answer as an unscripted one, and a refusal does not use the rule up", func() {
			serve(quotaScenario(scenario.RateLimits{RPM: 1}, scenario.Capacity{}, scenario.Speed{},
				scenario.Rule{Times: 2, Respond: scenario.Respond{OK: true, Headers: map[string]string{"x-from-rule": "yes"}}}))
			w := to("a").send(srv, ask("sonnet", 100, 10))
			Expect(w.Code).To(Equal(http.StatusOK))
			Expect(hdr(w, "x-from-rule")).To(Equal("yes"))
			Expect(hdr(w, "anthropic-ratelimit-requests-remaining")).To(Equal("0"), "the ok rule paid the bucket")
			w = to("a").send(srv, ask("sonnet", 100, 10))
			Expect(w.Code).To(Equal(http.StatusTooManyRequests))
			Expect(hdr(w, "x-from-rule")).To(BeEmpty(), "the bucket answered, not the rule")
			clk.Advance(time.Minute)
			Expect(hdr(to("a").send(srv, ask("sonnet", 100, 10)), "x-from-rule")).To(Equal("yes"), "its second use is still there")
		})

		It("sends no rate-limit headers for a model without limits", func() {
			w := to("a").send(srv, ask("haiku", 100, 10))
			Expect(w.Code).To(Equal(http.StatusOK))
			Expect(hdr(w, "anthropic-ratelimit-requests-limit")).To(BeEmpty())
		})
	})

	It("rounds retry-after up to whole seconds", func() {
		serve(quotaScenario(scenario.RateLimits{RPM: 7}, scenario.Capacity{}, scenario.Speed{}))
		statuses(srv, to("a"), ask("sonnet", 100, 10), 7)
		Expect(hdr(to("a").send(srv, ask("sonnet", 100, 10)), "retry-after")).To(Equal("9")) // 60s/7 = 8.57s
	})

	It("charges input tokens per minute the counted input", func() {
		serve(quotaScenario(scenario.RateLimits{ITPM: 1000}, scenario.Capacity{}, scenario.Speed{}))
		w := to("a").send(srv, ask("sonnet", 100, 600))
		Expect(w.Code).To(Equal(http.StatusOK))
		input := 1000 - atoi(hdr(w, "anthropic-ratelimit-input-tokens-remaining"))
		Expect(input).To(BeNumerically(">=", 600))
		w = to("a").send(srv, ask("sonnet", 100, 600))
		Expect(w.Code).To(Equal(http.StatusTooManyRequests))
		Expect(errorOf(w).Error.Message).To(ContainSubstring("rate limit of 1,000 input tokens per minute"))
		// input − (1000 − input) tokens refill at 1000 per minute.
		want := (time.Duration(2*input-1000)*time.Minute/1000 + time.Second - 1) / time.Second
		Expect(hdr(w, "retry-after")).To(Equal(itoa(int(want))))
		Expect(hdr(w, "anthropic-ratelimit-tokens-limit")).To(Equal("1000"))
	})

	Context("output tokens per minute", func() {
		It("reserves max_tokens and settles to the real output when the answer ends", func() {
			serve(quotaScenario(scenario.RateLimits{OTPM: 5000}, scenario.Capacity{}, scenario.Speed{}))
			w := to("a").send(srv, ask("sonnet", 4096, 10))
			Expect(w.Code).To(Equal(http.StatusOK))
			Expect(hdr(w, "anthropic-ratelimit-output-tokens-remaining")).To(Equal(itoa(5000 - answerTokens)))
			// Without settlement 904 would be left, too few for 4096.
			Expect(to("a").send(srv, ask("sonnet", 4096, 10)).Code).To(Equal(http.StatusOK))
		})

		It("holds the reservation while the answer is in flight", func() {
			// 50 output tokens at 25 per second after a 1s first token: 3s.
			serve(quotaScenario(scenario.RateLimits{OTPM: 5000}, scenario.Capacity{},
				scenario.Speed{FirstToken: secs(1), OutputTokensPerSecond: 25}))
			Expect(to("a").send(srv, ask("sonnet", 4096, 10)).Code).To(Equal(http.StatusOK))
			w := to("a").send(srv, ask("sonnet", 4096, 10))
			Expect(w.Code).To(Equal(http.StatusTooManyRequests))
			Expect(errorOf(w).Error.Message).To(ContainSubstring("5,000 output tokens per minute"))
			clk.Advance(3 * time.Second)
			w = to("a").send(srv, ask("sonnet", 4096, 10))
			Expect(w.Code).To(Equal(http.StatusOK), w.Body.String())
		})
	})

	It("refuses with 529 a request past the model's concurrent answers in flight", func() {
		serve(quotaScenario(scenario.RateLimits{}, scenario.Capacity{Concurrent: 1}, scenario.Speed{FirstToken: secs(10)}))
		Expect(to("a").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(http.StatusOK))
		w := to("b").send(srv, ask("sonnet", 100, 10))
		Expect(w.Code).To(Equal(529))
		Expect(errorOf(w).Error.Type).To(Equal("overloaded_error"))
		Expect(hdr(w, "x-should-retry")).To(Equal("true"))
		clk.Advance(10 * time.Second)
		Expect(to("b").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(http.StatusOK))
	})

	It("speaks OpenAI's headers and 429 on the Chat Completions wire", func() {
		serve(quotaScenario(scenario.RateLimits{RPM: 3, ITPM: 100000, OTPM: 20000}, scenario.Capacity{}, scenario.Speed{}))
		w := toOpenAI("a").send(srv, openaiAsk("sonnet", 100, 10))
		Expect(w.Code).To(Equal(http.StatusOK), w.Body.String())
		Expect(hdr(w, "x-ratelimit-limit-requests")).To(Equal("3"))
		Expect(hdr(w, "x-ratelimit-remaining-requests")).To(Equal("2"))
		Expect(hdr(w, "x-ratelimit-reset-requests")).To(Equal("20s"))
		Expect(hdr(w, "x-ratelimit-limit-tokens")).To(Equal("20000")) // output has less left
		Expect(hdr(w, "x-ratelimit-remaining-tokens")).To(Equal(itoa(20000 - answerTokens)))
		statuses(srv, toOpenAI("a"), openaiAsk("sonnet", 100, 10), 2)
		w = toOpenAI("a").send(srv, openaiAsk("sonnet", 100, 10))
		Expect(w.Code).To(Equal(http.StatusTooManyRequests))
		var body struct {
			Error struct{ Message, Type, Code string }
		}
		Expect(json.Unmarshal(w.Body.Bytes(), &body)).To(Succeed())
		Expect(body.Error.Code).To(Equal("rate_limit_exceeded"))
		Expect(body.Error.Type).To(Equal("requests"))
		Expect(body.Error.Message).To(ContainSubstring("on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s."))
		Expect(hdr(w, "retry-after")).To(Equal("20"))
		Expect(hdr(w, "x-ratelimit-reset-requests")).To(Equal("1m0s"))
	})

	It("words a token 429 on the Chat Completions wire as OpenAI does: tokens per min (TPM)", func() {
		serve(quotaScenario(scenario.RateLimits{ITPM: 1000}, scenario.Capacity{}, scenario.Speed{}))
		w := toOpenAI("a").send(srv, openaiAsk("sonnet", 100, 5000))
		Expect(w.Code).To(Equal(http.StatusTooManyRequests), w.Body.String())
		var body struct {
			Error struct{ Message, Type string }
		}
		Expect(json.Unmarshal(w.Body.Bytes(), &body)).To(Succeed())
		Expect(body.Error.Type).To(Equal("tokens"))
		Expect(body.Error.Message).To(ContainSubstring("on tokens per min (TPM): Limit 1000"))
	})

	It("keeps the answers in flight across a reset: capacity holds", func() {
		serve(quotaScenario(scenario.RateLimits{}, scenario.Capacity{Concurrent: 1}, scenario.Speed{FirstToken: secs(10)}))
		Expect(to("a").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(http.StatusOK)) // in flight for 10 s
		srv.Reset()
		Expect(to("b").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(529), "a second answer while the first is in flight")
	})

	It("refills every bucket on reset", func() {
		serve(quotaScenario(scenario.RateLimits{RPM: 1}, scenario.Capacity{}, scenario.Speed{}))
		Expect(statuses(srv, to("a"), ask("sonnet", 100, 10), 2)).To(Equal([]int{200, 429}))
		srv.Reset()
		Expect(to("a").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(http.StatusOK))
	})
})

func itoa(n int) string { return strconv.Itoa(n) }

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "%q", s)
	return n
}
