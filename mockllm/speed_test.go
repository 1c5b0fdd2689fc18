package mockllm_test

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("A model's speed", func() {
	// 50 output tokens at 25 per second after 400ms: 2.4s in flight.
	speed := scenario.Speed{FirstToken: scenario.Duration(400 * time.Millisecond), OutputTokensPerSecond: 25}
	const inFlight = 2400 * time.Millisecond

	It("makes an answer take first_token and its output's generation on the session's clock", func() {
		srv := mockllm.New([]*scenario.Scenario{quotaScenario(scenario.RateLimits{}, scenario.Capacity{}, speed)}, clock.NewVirtual())
		c := clock.NewVirtual()
		Expect(srv.Open(scName, "a", c)).To(Succeed())
		Expect(messageOf(to("a").send(srv, ask("sonnet", 100, 10))).Usage.OutputTokens).To(Equal(answerTokens))
		Expect(c.Now().Sub(clock.Epoch)).To(Equal(inFlight))
		w := to("a").send(srv, `{"model":"sonnet","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
		Expect(w.Code).To(Equal(http.StatusOK))
		Expect(w.Body.String()).To(HavePrefix("event: message_start"))
		Expect(w.Body.String()).To(ContainSubstring("event: message_stop"))
		Expect(c.Now().Sub(clock.Epoch)).To(Equal(2 * inFlight))
	})

	It("leaves errors, faults and a model without speed at once", func() {
		sc := quotaScenario(scenario.RateLimits{}, scenario.Capacity{}, speed,
			rule(scenario.When{Attempt: 1}, status(529)),
			rule(scenario.When{Attempt: 2}, scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultEmpty}}))
		srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		c := clock.NewVirtual()
		Expect(srv.Open(scName, "a", c)).To(Succeed())
		Expect(statuses(srv, to("a"), ask("sonnet", 100, 10), 2)).To(Equal([]int{529, 200}))
		Expect(to("a").send(srv, ask("haiku", 100, 10)).Code).To(Equal(http.StatusOK))
		Expect(c.Now()).To(Equal(clock.Epoch))
	})

	It("journals a timeout when the answer comes after the client's deadline", func() {
		slow := scenario.Speed{OutputTokensPerSecond: 1} // 50s for 50 tokens
		srv := mockllm.New([]*scenario.Scenario{quotaScenario(scenario.RateLimits{}, scenario.Capacity{}, slow)}, clock.NewVirtual())
		g := newGate()
		g.deadline = clock.Epoch.Add(10 * time.Second)
		Expect(srv.Open(scName, "a", g)).To(Succeed())
		to("a").send(srv, ask("sonnet", 100, 10))
		e := srv.Entries(scName, "a")[0]
		Expect(e.Status).To(Equal(0))
		Expect(e.Kind).To(Equal("timeout"))
	})
})
