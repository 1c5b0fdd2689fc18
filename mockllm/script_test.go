package mockllm_test

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the script", func() {
	var (
		clk  *clock.Virtual
		srv  *mockllm.Server
		good string
	)

	// serve builds the server for a script and opens session "s" on clk.
	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual())
		Expect(srv.Open(scName, "s", clk)).To(Succeed())
	}

	BeforeEach(func() {
		clk = clock.NewVirtual()
		good = ask("sonnet", 1000, 100)
	})

	It("answers with the first rule that matches", func() {
		serve(
			rule(scenario.When{Model: "sonnet"}, status(529)),
			rule(scenario.When{}, status(429)),
			rule(scenario.When{Model: "haiku"}, status(500)),
		)
		Expect(to("s").send(srv, good).Code).To(Equal(529))
		Expect(to("s").send(srv, ask("haiku", 100, 100)).Code).To(Equal(429))
	})

	It("gives a complete answer when no rule matches", func() {
		serve(rule(scenario.When{Model: "haiku"}, status(500)))
		m := messageOf(to("s").send(srv, good))
		Expect(m.StopReason).To(Equal("end_turn"))
		Expect(m.Usage.OutputTokens).To(Equal(answerTokens))
	})

	It("passes over a rule whose times are used up", func() {
		serve(
			scenario.Rule{Times: 2, Respond: scripted429},
			rule(scenario.When{}, ok),
		)
		Expect(statuses(srv, to("s"), good, 4)).To(Equal([]int{429, 429, 200, 200}))
	})

	It("numbers attempts per purpose", func() {
		serve(
			rule(scenario.When{Attempt: 2, Purpose: "turn"}, status(500)),
			rule(scenario.When{Attempt: 1, Purpose: "repair"}, status(503)),
		)
		turn, repair := to("s"), to("s").purposed("repair")
		Expect(turn.send(srv, good).Code).To(Equal(200))
		Expect(repair.send(srv, good).Code).To(Equal(503))
		Expect(turn.send(srv, good).Code).To(Equal(500))
		Expect(repair.send(srv, good).Code).To(Equal(200))
		Expect(turn.send(srv, good).Code).To(Equal(200))

		var attempts []int
		for _, e := range srv.Entries(scName, "s") {
			attempts = append(attempts, e.Attempt)
		}
		Expect(attempts).To(Equal([]int{1, 1, 2, 2, 3}))
	})

	It("counts a request the limits rejected as an attempt, without using up a rule", func() {
		serve(
			scenario.Rule{When: scenario.When{Attempt: 2}, Times: 1, Respond: status(429)},
			scenario.Rule{Times: 1, Respond: status(503)},
		)
		Expect(to("s").send(srv, ask("sonnet", 70000, 10)).Code).To(Equal(400)) // attempt 1: over max_output
		Expect(to("s").send(srv, good).Code).To(Equal(429))                     // attempt 2
		clk.Advance(time.Second)                                                // the wait it asked for
		Expect(to("s").send(srv, good).Code).To(Equal(503))
		Expect(to("s").send(srv, good).Code).To(Equal(200))
	})

	It("matches virtual time since the session began: after <= t < before", func() {
		serve(
			rule(scenario.When{Before: secs(30)}, status(529)),
			rule(scenario.When{After: secs(30), Before: secs(60)}, status(503)),
			rule(scenario.When{After: secs(60)}, ok),
		)
		Expect(to("s").send(srv, good).Code).To(Equal(529))
		clk.Advance(30*time.Second - time.Millisecond)
		Expect(to("s").send(srv, good).Code).To(Equal(529))
		clk.Advance(time.Millisecond)
		Expect(to("s").send(srv, good).Code).To(Equal(503))
		clk.Advance(30 * time.Second)
		Expect(to("s").send(srv, good).Code).To(Equal(200))

		var ms []int64
		for _, e := range srv.Entries(scName, "s") {
			ms = append(ms, e.TimeMS)
		}
		Expect(ms).To(Equal([]int64{0, 29999, 30000, 60000}))
	})

	It("measures time from Open, not from the clock's epoch", func() {
		clk.Advance(time.Hour)
		serve(rule(scenario.When{Before: secs(1)}, status(529)))
		Expect(to("s").send(srv, good).Code).To(Equal(529))
		clk.Advance(time.Second)
		Expect(to("s").send(srv, good).Code).To(Equal(200))
	})

	It("matches the purpose header, and a repair call is answered with a summary", func() {
		serve(rule(scenario.When{Purpose: "turn"}, status(500)))
		Expect(to("s").send(srv, good).Code).To(Equal(500)) // no header: a turn
		m := messageOf(to("s").purposed("repair").send(srv, good))
		Expect(m.Content[0].Text).To(Equal(tokens.Text(summaryToks)))
		Expect(srv.Entries(scName, "s")[1].Purpose).To(Equal("repair"))
	})

	It("rejects a purpose it does not know", func() {
		serve()
		w := to("s").purposed("summary").send(srv, good)
		Expect(w.Code).To(Equal(http.StatusBadRequest))
		Expect(errorOf(w).Error.Message).To(ContainSubstring(mockllm.PurposeHeader))
	})

	It("adds a rule's headers to an answer", func() {
		serve(rule(scenario.When{}, scenario.Respond{OK: true, Headers: map[string]string{"anthropic-ratelimit-requests-remaining": "3"}}))
		w := to("s").send(srv, good)
		Expect(w.Code).To(Equal(200))
		Expect(w.Header().Get("anthropic-ratelimit-requests-remaining")).To(Equal("3"))
	})

	It("answers a summary of 1000 tokens when the scenario gives none", func() {
		sc := newScenario()
		sc.Compaction.SummaryTokens = 0
		srv = mockllm.New([]*scenario.Scenario{sc}, clk)
		m := messageOf(to("s").purposed("repair").send(srv, ask("sonnet", 4000, 10)))
		Expect(m.Usage.OutputTokens).To(Equal(1000))
	})
})
