package mockllm_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the model's limits", func() {
	var srv *mockllm.Server

	BeforeEach(func() {
		// A script that would answer everything: the limits hold anyway.
		srv = mockllm.New([]*scenario.Scenario{newScenario(rule(scenario.When{}, ok))}, clock.NewVirtual())
	})

	DescribeTable("reject a request over them with the real API's words",
		func(maxTokens, input int, kind, msg string) {
			w := to("s").send(srv, ask("haiku", maxTokens, input))
			Expect(w.Code).To(Equal(http.StatusBadRequest))
			e := errorOf(w)
			Expect(e.Error.Type).To(Equal("invalid_request_error"))
			Expect(e.Error.Message).To(Equal(msg))
			Expect(srv.Entries(scName, "s")[0].Kind).To(Equal(kind))
		},
		Entry("max_tokens above max_output", 501, 10, "invalid_request",
			"max_tokens: 501 > 500, which is the maximum allowed number of output tokens for haiku"),
		Entry("the input alone over the window", 100, 1001, "context_overflow",
			"prompt is too long: 1001 tokens > 1000 maximum"),
		Entry("input plus max_tokens over the window", 300, 800, "context_overflow",
			"input length and `max_tokens` exceed context limit: 800 + 300 > 1000, decrease input length or `max_tokens` and try again"),
	)

	It("checks max_output before the window", func() {
		e := errorOf(to("s").send(srv, ask("haiku", 600, 2000)))
		Expect(e.Error.Message).To(HavePrefix("max_tokens: 600 > 500"))
	})

	It("lets input plus max_tokens equal to the window through", func() {
		m := messageOf(to("s").send(srv, ask("haiku", 200, 800)))
		Expect(m.Usage.InputTokens).To(Equal(800))
	})

	It("answers a model it does not serve with 404 not_found_error", func() {
		w := to("s").send(srv, ask("opus", 10, 10))
		Expect(w.Code).To(Equal(http.StatusNotFound))
		e := errorOf(w)
		Expect(e.Error.Type).To(Equal("not_found_error"))
		Expect(e.Error.Message).To(HavePrefix("model: opus. The scenario serves: "))
	})

	Describe("an answer longer than max_tokens", func() {
		It("comes back as a 200 cut at max_tokens", func() {
			m := messageOf(to("s").send(srv, ask("sonnet", 20, 10)))
			Expect(m.StopReason).To(Equal("max_tokens"))
			Expect(m.Usage.OutputTokens).To(Equal(20))
			Expect(m.Content).To(HaveLen(1))
			Expect(tokens.Count(m.Content[0].Text)).To(Equal(20))
			Expect(srv.Entries(scName, "s")[0].Kind).To(Equal("truncated"))
		})

		It("is complete when max_tokens is enough", func() {
			m := messageOf(to("s").send(srv, ask("sonnet", answerTokens, 10)))
			Expect(m.StopReason).To(Equal("end_turn"))
			Expect(m.Usage.OutputTokens).To(Equal(answerTokens))
			Expect(m.Content[0].Text).To(Equal(tokens.Text(answerTokens)))
		})
	})
})
