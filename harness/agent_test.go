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

var _ = Describe("agent turns over loopback", func() {
	var rep ledger.Report
	BeforeEach(func() {
		scs, err := scenario.Load(
			"../scenarios/loop-repeat.yaml", "../scenarios/loop-ping-pong.yaml",
			"../scenarios/loop-no-progress.yaml", "../scenarios/loop-recovers-after-warning.yaml",
			"../scenarios/honest-multi-step.yaml",
		)
		Expect(err).NotTo(HaveOccurred())
		// Run reconciles every run's ledger with the mock's journal, token
		// for token, tool blocks included: no error means they agree.
		rep, err = harness.Run(context.Background(), scs, []recovery.Strategy{recovery.Blind(), recovery.Classifying()}, harness.Options{Seed: 3})
		Expect(err).NotTo(HaveOccurred())
	})

	DescribeTable("classify stops a stuck loop early, with the detector named; blind burns steps to the cap",
		func(sc, detector string, steps, warnings int) {
			c := result(rep, sc, "classify")
			Expect(c.Outcome).To(Equal(ledger.OutcomeAborted))
			Expect(c.LoopDetector).To(Equal(detector))
			Expect(c.Steps).To(Equal(steps))
			Expect(c.Attempts).To(Equal(steps))
			Expect(c.LoopWarnings).To(Equal(warnings))
			Expect(c.Reason).To(ContainSubstring(detector))

			b := result(rep, sc, "blind")
			Expect(b.Outcome).To(Equal(ledger.OutcomeAborted))
			Expect(b.LoopDetector).To(Equal(recovery.DetectorStepCap))
			Expect(b.Steps).To(Equal(recovery.DefaultStepCap))
			Expect(b.LoopWarnings).To(BeZero())
			Expect(b.SubmittedInputTokens).To(BeNumerically(">", 3*c.SubmittedInputTokens))
			// The whole history is resent at every step: each step costs more.
			for i := 1; i < len(b.AttemptsLog); i++ {
				Expect(b.AttemptsLog[i].InputTokens).To(BeNumerically(">", b.AttemptsLog[i-1].InputTokens))
			}
		},
		Entry("repeat", "loop-repeat", "repeat", 5, 1),
		Entry("ping-pong (the repeat count breaks it first)", "loop-ping-pong", "repeat", 9, 2),
		Entry("no progress, at once with no warning (the layered demo's rule)", "loop-no-progress", "no_progress", 2, 0),
	)

	It("lets a model that heeds the warning finish; blind never warns it", func() {
		c := result(rep, "loop-recovers-after-warning", "classify")
		Expect(c.Outcome).To(Equal(ledger.OutcomeSuccess))
		Expect(c.Steps).To(Equal(5))
		Expect(c.LoopWarnings).To(Equal(1))
		Expect(c.LoopDetector).To(BeEmpty())
		b := result(rep, "loop-recovers-after-warning", "blind")
		Expect(b.Outcome).To(Equal(ledger.OutcomeAborted))
		Expect(b.Steps).To(Equal(recovery.DefaultStepCap))
	})

	It("does not trip on an honest multi-step task", func() {
		for _, s := range []string{"blind", "classify"} {
			r := result(rep, "honest-multi-step", s)
			Expect(r.Outcome).To(Equal(ledger.OutcomeSuccess), s)
			Expect(r.Steps).To(Equal(7), s)
			Expect(r.LoopWarnings).To(BeZero(), s)
		}
	})
})
