package harness_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("Check", func() {
	result := ledger.Result{Scenario: "s", Strategy: "classify", Outcome: ledger.OutcomeSuccess,
		Attempts: 5, WaitMS: 7_500, SubmittedInputTokens: 520_000, Fallbacks: 1, Steps: 1}
	with := func(e scenario.Expect) []*scenario.Scenario {
		return []*scenario.Scenario{{Name: "s", Path: "s.yaml", Expect: map[string]scenario.Expect{"classify": e}}}
	}

	It("lists every broken budget with the figure that broke it, in the budget's unit", func() {
		vs, err := harness.Check(with(scenario.Expect{Outcome: "failed", Attempts: "<= 4", Wait: "< 3s",
			SubmittedInputTokens: "<= 600000", Fallbacks: "== 0", Steps: "1"}), []ledger.Result{result})
		Expect(err).NotTo(HaveOccurred())
		Expect(vs).To(Equal([]harness.Violation{
			{Scenario: "s", Strategy: "classify", Field: "outcome", Budget: "failed", Got: "success"},
			{Scenario: "s", Strategy: "classify", Field: "attempts", Budget: "<= 4", Got: "5"},
			{Scenario: "s", Strategy: "classify", Field: "wait", Budget: "< 3s", Got: "7.5s"},
			{Scenario: "s", Strategy: "classify", Field: "fallbacks", Budget: "== 0", Got: "1"},
		}))
		Expect(vs[1].String()).To(Equal("s × classify: attempts is 5, expected <= 4"))
	})

	It("holds budgets that hold, and lets strategies and scenarios with none go free", func() {
		vs, err := harness.Check(with(scenario.Expect{Outcome: "!= failed", Attempts: ">= 5", Wait: "<= 7.5s"}),
			[]ledger.Result{result, {Scenario: "s", Strategy: "blind", Attempts: 99}, {Scenario: "other", Strategy: "classify"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(vs).To(BeEmpty())
	})

	It("checks a workload's makespan, p99, wasted input tokens and total attempts", func() {
		fleet := ledger.Result{Scenario: "s", Strategy: "classify", Outcome: ledger.OutcomeFailed, Attempts: 54,
			Workload: &ledger.Workload{Turns: 20, MakespanMS: 27_000, P99MS: 27_000, Attempts: 54, WastedInputTokens: 160_000}}
		vs, err := harness.Check(with(scenario.Expect{Attempts: "<= 40", Makespan: "< 20s", P99: "<= 27s",
			WastedInputTokens: "== 0"}), []ledger.Result{fleet})
		Expect(err).NotTo(HaveOccurred())
		Expect(vs).To(Equal([]harness.Violation{
			{Scenario: "s", Strategy: "classify", Field: "attempts", Budget: "<= 40", Got: "54"},
			{Scenario: "s", Strategy: "classify", Field: "makespan", Budget: "< 20s", Got: "27s"},
			{Scenario: "s", Strategy: "classify", Field: "wasted_input_tokens", Budget: "== 0", Got: "160000"},
		}))
	})

	It("names the file of an expect block that does not parse", func() {
		_, err := harness.Check(with(scenario.Expect{Attempts: "about four"}), []ledger.Result{result})
		Expect(err).To(MatchError(ContainSubstring("s.yaml: expect.classify: attempts")))
	})

	It("finds a budget the default suite's run breaks once the budget is tightened", func() {
		scs := suite()
		var target *scenario.Scenario
		for _, sc := range scs {
			if sc.Name == "overloaded-then-backup" {
				target = sc
			}
		}
		Expect(target).NotTo(BeNil())
		exp := target.Expect["classify"]
		exp.Attempts = "<= 4"
		target.Expect["classify"] = exp
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{target}, blindAndClassify(), harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		vs, err := harness.Check(scs, rep.Results)
		Expect(err).NotTo(HaveOccurred())
		Expect(vs).To(ConsistOf(harness.Violation{Scenario: "overloaded-then-backup", Strategy: "classify",
			Field: "attempts", Budget: "<= 4", Got: "5"}))
	})
})
