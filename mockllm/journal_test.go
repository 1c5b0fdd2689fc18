package mockllm_test

import (
	"encoding/json"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	. "github.com/onsi/gomega/gstruct"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the journal", func() {
	var (
		clk *clock.Virtual
		srv *mockllm.Server
	)

	BeforeEach(func() {
		clk = clock.NewVirtual()
		srv = mockllm.New([]*scenario.Scenario{newScenario(
			scenario.Rule{Times: 1, Respond: scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "2"}}},
		)}, clock.NewVirtual())
		Expect(srv.Open(scName, "s", clk)).To(Succeed())
	})

	It("records what the client sent and what it got", func() {
		retry := func(n string) call {
			c := to("s")
			c.header = http.Header{"X-Stainless-Retry-Count": {n}}
			return c
		}
		w := retry("0").send(srv, ask("sonnet", 30, 120))
		clk.Advance(2500 * time.Millisecond)
		retry("1").send(srv, ask("sonnet", 30, 120))
		to("s").purposed("repair").send(srv, ask("sonnet", 4000, 7))

		es := srv.Entries(scName, "s")
		Expect(es).To(HaveLen(3))
		zero, twoSeconds := 0, int64(2000)
		Expect(es[0]).To(Equal(mockllm.Entry{
			Scenario: scName, Session: "s", N: 1, TimeMS: 0, Purpose: "turn", Attempt: 1,
			Model: "sonnet", MaxTokens: 30, InputTokens: 120, OutputTokens: 0,
			Status: 429, Kind: "rate_limit", RetryCount: &zero, RequestID: w.Header().Get("request-id"),
			Wire: "anthropic", RetryAfterMS: &twoSeconds,
			ErrorType: "rate_limit_error", ErrorMessage: es[0].ErrorMessage, Rule: 1,
		}))
		Expect(es[0].ErrorMessage).To(ContainSubstring("rate limit"))
		Expect(es[1]).To(MatchFields(IgnoreExtras, Fields{
			"N": Equal(2), "TimeMS": Equal(int64(2500)), "GapMS": Equal(int64(2500)), "HonoredRetryAfter": PointTo(BeTrue()),
			"Purpose": Equal("turn"), "Attempt": Equal(2),
			"Status": Equal(200), "Kind": Equal("truncated"), "OutputTokens": Equal(30),
			"StopReason": Equal("max_tokens"), "RetryCount": PointTo(Equal(1)),
		}))
		Expect(es[2]).To(MatchFields(IgnoreExtras, Fields{
			"N": Equal(3), "TimeMS": Equal(int64(2500)), "Purpose": Equal("repair"), "Attempt": Equal(1),
			"Status": Equal(200), "Kind": Equal("ok"), "InputTokens": Equal(7),
			"OutputTokens": Equal(summaryToks), "StopReason": Equal("end_turn"), "RetryCount": BeNil(),
		}))
	})

	It("leaves retry_count out when the header was not sent", func() {
		to("s").send(srv, ask("sonnet", 30, 120))
		b, err := json.Marshal(srv.Entries(scName, "s")[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).NotTo(ContainSubstring("retry_count"))
		Expect(string(b)).To(ContainSubstring(`"time_ms":0`))
	})

	It("ignores a retry count that is not a number", func() {
		c := to("s")
		c.header = http.Header{"X-Stainless-Retry-Count": {"many"}}
		c.send(srv, ask("sonnet", 30, 120))
		Expect(srv.Entries(scName, "s")[0].RetryCount).To(BeNil())
	})

	It("lists every session's requests in the order they came", func() {
		for _, s := range []string{"s", "x", "s", "y", "x"} {
			to(s).send(srv, ask("sonnet", 30, 120))
		}
		var got []string
		for _, e := range srv.Journal() {
			got = append(got, e.Session)
		}
		Expect(got).To(Equal([]string{"s", "x", "s", "y", "x"}))
	})

	It("hands out copies", func() {
		c := to("s")
		c.header = http.Header{"X-Stainless-Retry-Count": {"3"}}
		c.send(srv, ask("sonnet", 30, 120))
		es := srv.Entries(scName, "s")
		es[0].Model = "changed"
		*es[0].RetryCount = 9
		again := srv.Entries(scName, "s")
		Expect(again[0].Model).To(Equal("sonnet"))
		Expect(*again[0].RetryCount).To(Equal(3))
	})

	DescribeTable("labels an error the way a classifier would",
		func(code int, typ, msg, kind string) {
			Expect(mockllm.ErrorKind(code, typ, msg)).To(Equal(kind))
		},
		Entry("a 429 about quota", 429, "rate_limit_error", "You exceeded your current quota", "quota_exhausted"),
		Entry("a 429 about credit", 429, "rate_limit_error", "Your credit balance is too low", "quota_exhausted"),
		Entry("a plain 429", 429, "rate_limit_error", "slow down", "rate_limit"),
		Entry("an overloaded_error on a 500", 500, "overloaded_error", "Overloaded", "overloaded"),
		Entry("a scripted 400 about the prompt", 400, "invalid_request_error", "prompt is too long: 5 tokens > 4 maximum", "context_overflow"),
		Entry("a 413 about the context", 413, "request_too_large", "context length exceeded", "context_overflow"),
		Entry("a 413 about bytes", 413, "request_too_large", "Request exceeds the maximum allowed number of bytes.", "request_too_large"),
		Entry("a 400 about a schema", 400, "invalid_request_error", "tools.0: bad schema", "invalid_request"),
	)
})

var _ = Describe("the session summary", func() {
	It("counts the waits the server asked for and those the client kept", func() {
		clk := clock.NewVirtual()
		srv := mockllm.New([]*scenario.Scenario{newScenario(
			scenario.Rule{Times: 2, Respond: scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "2"}}},
		)}, clock.NewVirtual())
		Expect(srv.Open(scName, "s", clk)).To(Succeed())
		to("s").send(srv, ask("sonnet", 30, 120))
		clk.Advance(time.Second) // too soon: asked 2 s
		to("s").send(srv, ask("sonnet", 30, 120))
		clk.Advance(2500 * time.Millisecond) // waited
		to("s").send(srv, ask("sonnet", 30, 120))
		clk.Advance(2 * time.Second) // waited
		to("s").send(srv, ask("sonnet", 30, 120))

		// The early retry is refused, asking for the 1 s left, and uses
		// the rule up no more: the second use answers at 3.5 s.
		Expect(mockllm.Summarize(srv.Journal())).To(Equal([]mockllm.SessionSummary{{
			Scenario: scName, Session: "s", Wires: []string{"anthropic"}, Requests: 4,
			Statuses: []string{"429", "429", "429", "200"}, InputTokens: 480, OutputTokens: 30, SpanMS: 5500,
			RetryAfterAsked: 3, RetryAfterHonored: 2,
		}}))
	})
})
