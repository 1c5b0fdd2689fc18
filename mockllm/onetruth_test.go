package mockllm_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// limitUsed reads "Limit N, Used M" out of an OpenAI rate-limit message.
var limitUsed = regexp.MustCompile(`Limit (\d+), Used (\d+)`)

// openaiMessage is the message of an OpenAI error envelope.
func openaiMessage(w *httptest.ResponseRecorder) string {
	GinkgoHelper()
	var env struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	Expect(json.Unmarshal(w.Body.Bytes(), &env)).To(Succeed())
	return env.Error.Message
}

// agrees checks that a 429's message and its x-ratelimit headers tell of
// the same bucket: its limit, and what is used of it (limit − remaining).
func agrees(w *httptest.ResponseRecorder, family string) {
	GinkgoHelper()
	Expect(w.Code).To(Equal(http.StatusTooManyRequests), w.Body.String())
	m := limitUsed.FindStringSubmatch(openaiMessage(w))
	Expect(m).NotTo(BeNil(), openaiMessage(w))
	limit, err := strconv.Atoi(hdr(w, "x-ratelimit-limit-"+family))
	Expect(err).NotTo(HaveOccurred(), "x-ratelimit-limit-"+family)
	remaining, err := strconv.Atoi(hdr(w, "x-ratelimit-remaining-"+family))
	Expect(err).NotTo(HaveOccurred())
	Expect(m[1]).To(Equal(strconv.Itoa(limit)), "the body's limit is the header's")
	Expect(m[2]).To(Equal(strconv.Itoa(limit-remaining)), "the body's use is the header's limit less what remains")
}

var _ = Describe("one truth per 429", func() {
	var clk *clock.Virtual
	BeforeEach(func() { clk = clock.NewVirtual() })
	serve := func(sc *scenario.Scenario) *mockllm.Server {
		return mockllm.New([]*scenario.Scenario{sc}, stopped{clk})
	}
	scripted := rule(scenario.When{}, status(429))

	DescribeTable("a scripted 429's message states the limit its headers state",
		func(path string, limits scenario.RateLimits) {
			srv := serve(quotaScenario(limits, scenario.Capacity{}, scenario.Speed{}, scripted))
			c := toOpenAI("a")
			c.path = "/" + scName + path
			body := openaiAsk("sonnet", 100, 10)
			if path == "/v1/responses" {
				body = `{"model":"sonnet","input":"hi","max_output_tokens":100}`
			}
			agrees(c.send(srv, body), "requests")
		},
		Entry("Chat Completions, a model without buckets", "/v1/chat/completions", scenario.RateLimits{}),
		Entry("Chat Completions, a model of 10 requests a minute", "/v1/chat/completions", scenario.RateLimits{RPM: 10}),
		Entry("Responses, a model without buckets", "/v1/responses", scenario.RateLimits{}),
		Entry("Responses, a model of 10 requests a minute", "/v1/responses", scenario.RateLimits{RPM: 10}),
	)

	It("a token bucket's refusal has the headers of that bucket, not of the other", func() {
		// Input has fewer tokens left than output, but output refuses.
		srv := serve(quotaScenario(scenario.RateLimits{ITPM: 1000, OTPM: 5000}, scenario.Capacity{}, scenario.Speed{}))
		Expect(toOpenAI("a").send(srv, openaiAsk("sonnet", 100, 900)).Code).To(Equal(http.StatusOK))
		w := toOpenAI("a").send(srv, openaiAsk("sonnet", 4990, 10))
		Expect(openaiMessage(w)).To(ContainSubstring("Limit 5000,"), "the output bucket refused")
		agrees(w, "tokens")
	})

	It("the bucket's own refusal agrees on the Anthropic wire too", func() {
		srv := serve(quotaScenario(scenario.RateLimits{RPM: 1}, scenario.Capacity{}, scenario.Speed{}))
		to("a").send(srv, ask("sonnet", 100, 10))
		w := to("a").send(srv, ask("sonnet", 100, 10))
		Expect(w.Code).To(Equal(http.StatusTooManyRequests))
		Expect(errorOf(w).Error.Message).To(ContainSubstring("rate limit of 1 requests per minute"))
		Expect(hdr(w, "anthropic-ratelimit-requests-limit")).To(Equal("1"))
		Expect(hdr(w, "anthropic-ratelimit-requests-remaining")).To(Equal("0"))
	})

	DescribeTable("a scripted Gemini 429 states the model's rpm, as the bucket's own refusal does",
		func(rpm int, want string, streamed bool) {
			script := []scenario.Rule{rule(scenario.When{}, status(429))}
			if streamed { // a rate limit inside a stream, after a frame
				script = []scenario.Rule{rule(scenario.When{}, scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 1}, Type: "rate_limit_error"})}
			}
			srv := serve(quotaScenario(scenario.RateLimits{RPM: rpm}, scenario.Capacity{}, scenario.Speed{}, script...))
			c := to("g")
			c.path = "/" + scName + "/v1beta/models/sonnet:generateContent"
			if streamed {
				c.path = "/" + scName + "/v1beta/models/sonnet:streamGenerateContent?alt=sse"
			}
			c.header = http.Header{"X-Goog-Api-Key": {"t"}}
			w := c.send(srv, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
			body := w.Body.String()
			Expect(body).To(ContainSubstring(`limit: `+want+`, model: sonnet`), body)
			Expect(body).To(ContainSubstring(`"quotaValue":"`+want+`"`), body)
			Expect(body).To(ContainSubstring(`"retryDelay":"1s"`), "a 429 whose rule says no wait asks for 1 s")
		},
		Entry("a model of 25 requests a minute", 25, "25", false),
		Entry("a model without buckets: the free tier's 10", 0, "10", false),
		Entry("inside a stream, a model of 25 requests a minute", 25, "25", true),
	)
})
