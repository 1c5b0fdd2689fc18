package mockllm_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("one 429, one story", func() {
	var srv *mockllm.Server
	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual())
	}
	chat := call{path: "/" + scName + "/v1/chat/completions", session: "s"}
	chatAsk := chatBody(`[` + userHi + `]`)
	openaiHeaders := map[string]string{
		"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "20s",
		"x-ratelimit-remaining-tokens": "29000", "x-ratelimit-reset-tokens": "84ms",
	}

	It("OpenAI: the message, retry-after and the reset headers state the wait of the shut window", func() {
		serve(rule(scenario.When{}, scenario.Respond{Status: 429, Headers: openaiHeaders}))
		w := chat.send(srv, chatAsk)
		Expect(w.Code).To(Equal(429))
		var e oaError
		Expect(json.Unmarshal(w.Body.Bytes(), &e)).To(Succeed())
		Expect(e.Error.Message).To(ContainSubstring("Please try again in 20s."))
		Expect(w.Header().Get("Retry-After")).To(Equal("20"))
		Expect(w.Header().Get("X-Ratelimit-Reset-Requests")).To(Equal("20s"))
		Expect(*srv.Entries(scName, "s")[0].RetryAfterMS).To(Equal(int64(20000)))
	})

	It("OpenAI: a retry-after the rule sets is the wait the message states", func() {
		serve(rule(scenario.When{}, scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "7"}}))
		w := chat.send(srv, chatAsk)
		Expect(w.Body.String()).To(ContainSubstring("Please try again in 7s."))
		Expect(w.Header().Get("X-Ratelimit-Reset-Requests")).To(Equal("7s"))
	})

	It("a 429 whose rule says nothing carries retry-after: the time left in its window, else 1 s, on both wires", func() {
		serve(rule(scenario.When{Before: secs(10)}, status(429)), rule(scenario.When{Attempt: 2}, status(429)))
		w := to("s").send(srv, ask("sonnet", 100, 10))
		Expect(w.Code).To(Equal(429))
		Expect(w.Header().Get("Retry-After")).To(Equal("10"))
		serve(rule(scenario.When{}, status(429)))
		Expect(to("s").send(srv, ask("sonnet", 100, 10)).Header().Get("Retry-After")).To(Equal("1"))
		w = chat.send(srv, chatAsk)
		Expect(w.Header().Get("Retry-After")).To(Equal("1"))
		Expect(w.Body.String()).To(ContainSubstring("Please try again in 1s."))
		Expect(*srv.Entries(scName, "s")[0].RetryAfterMS).To(Equal(int64(1000)))
	})

	It("a rule removes retry-after with an empty value, and a quota 429 carries none", func() {
		serve(rule(scenario.When{}, scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": ""}}))
		w := to("s").send(srv, ask("sonnet", 100, 10))
		Expect(w.Header().Values("Retry-After")).To(BeEmpty())
		Expect(srv.Entries(scName, "s")[0].RetryAfterMS).To(BeNil())
		serve(rule(scenario.When{}, scenario.Respond{Status: 429, Message: "You exceeded your current quota"}))
		Expect(to("s").send(srv, ask("sonnet", 100, 10)).Header().Values("Retry-After")).To(BeEmpty())
	})

	It("a rule with retry-after-ms gets no retry-after added", func() {
		serve(rule(scenario.When{}, scenario.Respond{Status: 429, Headers: map[string]string{"retry-after-ms": "1500"}}))
		w := to("s").send(srv, ask("sonnet", 100, 10))
		Expect(w.Header().Values("Retry-After")).To(BeEmpty())
		Expect(w.Header().Get("Retry-After-Ms")).To(Equal("1500"))
	})

	It("Anthropic's reset headers give the wait when no retry-after is set", func() {
		serve(rule(scenario.When{}, scenario.Respond{Status: 429, Headers: map[string]string{
			"anthropic-ratelimit-requests-remaining": "0", "anthropic-ratelimit-requests-reset": "2026-01-01T00:00:12Z",
			"anthropic-ratelimit-tokens-remaining": "100", "anthropic-ratelimit-tokens-reset": "2026-01-01T00:00:30Z",
		}}))
		Expect(to("s").send(srv, ask("sonnet", 100, 10)).Header().Get("Retry-After")).To(Equal("12"))
	})

	It("OpenAI: an overload is a 503 server_error as OpenAI sends it, journalled as overloaded", func() {
		serve(rule(scenario.When{}, status(529)))
		w := chat.send(srv, chatAsk)
		Expect(w.Code).To(Equal(503))
		var e oaError
		Expect(json.Unmarshal(w.Body.Bytes(), &e)).To(Succeed())
		Expect(e.Error.Type).To(Equal("server_error"))
		Expect(e.Error.Code).To(BeNil())
		id := w.Header().Get("X-Request-Id")
		Expect(e.Error.Message).To(Equal("That model is currently overloaded with other requests. You can retry your request, or contact us " +
			"through our help center at help.openai.com if the error persists. (Please include the request ID " + id + " in your message.)"))
		Expect(srv.Entries(scName, "s")[0]).To(And(HaveField("Status", 503), HaveField("Kind", "overloaded")))
		// The Anthropic wire keeps its 529.
		Expect(to("s").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(529))
	})
})
