package harness_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// A strategy file may ask for 1,000 attempts without backoff and a step
// cap of 10,000; the harness's bound on the tokens a run submits is what
// keeps such a run short.
var _ = Describe("the bound on the tokens a run submits", func() {
	parse := func(text string) *scenario.Scenario {
		sc, err := scenario.Parse("bound.yaml", []byte(text))
		Expect(err).NotTo(HaveOccurred())
		return sc
	}
	const models = `
models:
  m: {context_window: 1000000, max_output: 64000}
turn:
  model: m
  max_tokens: 1000
  messages:
    - {count: 2, tokens: 100000}
  answer_tokens: 100
`
	var overloaded, looping *scenario.Scenario
	BeforeEach(func() {
		overloaded = parse("name: overloaded\ndescription: 529 forever\n" + models + "script:\n  - respond: {status: 529}\n")
		looping = parse("name: looping\ndescription: the same tool forever\n" + models + `tools:
  - {name: read, result: "x", vary_result: true}
script:
  - respond: {tool_use: [{name: read, input: '{"path": "a"}'}]}
`)
	})
	tireless := recovery.Blind()
	tireless.Name, tireless.Attempts, tireless.Backoff.Base, tireless.StepCap = "tireless", 1000, 0, 10_000

	It("stops a run once its requests reach it, aborted, with the journal still in agreement", func() {
		// Run reconciles each run's ledger with the mock's journal: no
		// error means they agree.
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{overloaded, looping},
			[]recovery.Strategy{tireless}, harness.Options{Seed: 1, RunTokens: 1_000_000})
		Expect(err).NotTo(HaveOccurred())

		r := result(rep, "overloaded", "tireless")
		Expect(r.Outcome).To(Equal(ledger.OutcomeAborted))
		Expect(r.Reason).To(ContainSubstring("bound of 1000000 submitted input tokens"))
		Expect(r.Attempts).To(Equal(10)) // 100,000 tokens each
		Expect(r.SubmittedInputTokens).To(Equal(1_000_000))

		a := result(rep, "looping", "tireless")
		Expect(a.Outcome).To(Equal(ledger.OutcomeAborted))
		Expect(a.Reason).To(ContainSubstring("bound of 1000000"))
		Expect(a.Steps).To(Equal(10)) // 100,000 tokens and a little more each
		Expect(a.SubmittedInputTokens).To(BeNumerically(">=", 1_000_000))
	})

	It("stops an agent turn once the messages its requests carried reach the bound on messages", func() {
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{looping},
			[]recovery.Strategy{tireless}, harness.Options{Seed: 1, RunMessages: 100})
		Expect(err).NotTo(HaveOccurred())
		a := result(rep, "looping", "tireless")
		Expect(a.Outcome).To(Equal(ledger.OutcomeAborted))
		Expect(a.Reason).To(ContainSubstring("bound of 100 messages sent"))
		// step k sends the 2 messages of the turn and 2 per earlier step:
		// 2+4+...+20 = 110 messages by step 10
		Expect(a.Steps).To(Equal(10))
	})

	It("stops a run once the requests it sent reach the bound on requests", func() {
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{overloaded},
			[]recovery.Strategy{tireless}, harness.Options{Seed: 1, RunRequests: 7})
		Expect(err).NotTo(HaveOccurred())
		r := result(rep, "overloaded", "tireless")
		Expect(r.Outcome).To(Equal(ledger.OutcomeAborted))
		Expect(r.Reason).To(ContainSubstring("bound of 7 requests sent"))
		Expect(r.Attempts).To(Equal(7))
	})

	It("names the step cap, not the loop guard, when the cap stopped an agent turn", func() {
		capped := recovery.Blind()
		capped.Name, capped.StepCap = "capped", 3
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{looping},
			[]recovery.Strategy{capped}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		a := result(rep, "looping", "capped")
		Expect(a.Outcome).To(Equal(ledger.OutcomeAborted))
		Expect(a.Reason).To(Equal("step cap of 3 reached"))
		Expect(a.Steps).To(Equal(3))
	})

	It("leaves a run under it alone", func() {
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{overloaded},
			[]recovery.Strategy{recovery.Blind()}, harness.Options{Seed: 1, RunTokens: 1_000_000})
		Expect(err).NotTo(HaveOccurred())
		r := result(rep, "overloaded", "blind")
		Expect(r.Outcome).To(Equal(ledger.OutcomeFailed))
		Expect(r.Attempts).To(Equal(5))
	})

	// A workload is one run: its turns share the bound, and each turn
	// stops there, the one whose answer reached it at once, the others
	// when they next wake or start, none with a request in flight.
	// itpm-batch's twelve turns start together: the bucket admits the
	// first four, whose answers take 2 s, and refuses the rest at once,
	// with retry-after 15. Without the bound in the fleet, classify makes
	// 38 attempts.
	DescribeTable("stops a workload at the bound, every turn aborted, the journal in agreement",
		func(tokens, attempts, aborted int) {
			scs, err := scenario.Load("../scenarios/itpm-batch.yaml")
			Expect(err).NotTo(HaveOccurred())
			rep, err := harness.Run(context.Background(), scs, []recovery.Strategy{recovery.Classifying()},
				harness.Options{Seed: 1, RunTokens: tokens})
			Expect(err).NotTo(HaveOccurred())
			r := result(rep, "itpm-batch", "classify")
			Expect(r.Workload).NotTo(BeNil())
			Expect(r.Attempts).To(Equal(attempts))
			Expect(r.Outcome).To(Equal(ledger.OutcomeAborted))
			Expect(r.Workload.Failed).To(Equal(aborted))
			Expect(r.Reason).To(MatchRegexp(`^%d of 12 turns did not succeed; first turn \d+: stopped by the harness: the run reached its bound of %d submitted input tokens$`, aborted, tokens))
		},
		// The fifth request, the first refusal, reaches it; the seven
		// turns after it stop before they send.
		Entry("reached by the first refusal", 1, 5, 12),
		// Every turn has sent once (100,000 tokens each) when the fourth
		// answer reaches it at 12 s: the first three turns are done, the
		// eight refused turns are asleep until 15 s and stop when they
		// wake.
		Entry("reached while the refused turns sleep", 1_200_000, 12, 9),
	)
})
