package reports

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
)

var _ = Describe("Compare", func() {
	// one is a single result with the given attempts, outcome success.
	one := func(attempts int) ledger.Report {
		return ledger.Report{Seed: 1, Results: []ledger.Result{{Scenario: "s", Strategy: "classify",
			Outcome: ledger.OutcomeSuccess, Attempts: attempts}}}
	}

	It("finds nothing moved in a run compared with itself", func() {
		c := Compare(fixtureReport(), fixtureReport(), 0)
		Expect(c.Changes).To(BeEmpty())
		Expect(c.Regressions()).To(BeEmpty())
		Expect(c.Compared).To(Equal(4))
		Expect(changeCounts(c)).To(Equal("Compared 4 results with the baseline (max regress 0%): nothing moved."))
	})

	DescribeTable("judges a cost against the tolerance",
		func(before, after int, tolerance float64, want Verdict, delta string) {
			c := Compare(one(before), one(after), tolerance)
			Expect(c.Changes).To(HaveLen(1))
			Expect(c.Changes[0].Verdict).To(Equal(want))
			Expect(c.Changes[0].Delta).To(Equal(delta))
		},
		Entry("10 to 11 is within 10%", 10, 11, 0.1, WithinTolerance, "+10.0%"),
		Entry("10 to 12 is past 10%", 10, 12, 0.1, Regressed, "+20.0%"),
		Entry("any growth with no tolerance", 10, 11, 0.0, Regressed, "+10.0%"),
		Entry("growth from zero, whatever the tolerance", 0, 1, 5.0, Regressed, "from 0"),
		Entry("a fall", 10, 5, 0.0, Improved, "-50.0%"),
	)

	DescribeTable("judges an outcome",
		func(before, after ledger.Outcome, want Verdict) {
			base, now := one(1), one(1)
			base.Results[0].Outcome, now.Results[0].Outcome = before, after
			c := Compare(base, now, 0.5)
			Expect(c.Changes).To(ConsistOf(Change{Scenario: "s", Strategy: "classify", Metric: "outcome",
				Before: string(before), After: string(after), Verdict: want}))
		},
		Entry("success lost, whatever the tolerance", ledger.OutcomeSuccess, ledger.OutcomeTruncated, Regressed),
		Entry("success won", ledger.OutcomeFailed, ledger.OutcomeSuccess, Improved),
		Entry("between two failures", ledger.OutcomeFailed, ledger.OutcomeAborted, Changed),
	)

	It("lists the rows that moved, in the run's order, and the results on one side only", func() {
		c := Compare(fixtureBaseline(), fixtureReport(), 0.1)
		Expect(c.Changes).To(Equal([]Change{
			{overloadScenario, "classify", "attempts", "4", "5", "+25.0%", Regressed},
			{overloadScenario, "classify", "wait", "3s", "5s", "+66.7%", Regressed},
			{overflowScenario, "classify", "outcome", "failed", "success", "", Improved},
			{overflowScenario, "classify", "submitted_input_tokens", "300,000", "241,200", "-19.6%", Improved},
		}))
		Expect(c.Regressions()).To(HaveLen(2))
		Expect(c.Missing).To(Equal([]string{"blind on retired"}))
		Expect(c.Added).To(BeEmpty())
		Expect(Compare(fixtureReport(), fixtureBaseline(), 0).Added).To(Equal([]string{"blind on retired"}))
	})

	It("says when the seeds differ", func() {
		base := fixtureReport()
		base.Seed = 7
		Expect(changeCounts(Compare(base, fixtureReport(), 0))).To(ContainSubstring("The baseline ran with seed 7, this run with 42."))
	})

	DescribeTable("reads a tolerance",
		func(in string, want float64) {
			got, err := ParseTolerance(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(BeNumerically("~", want, 1e-12))
		},
		Entry("a percentage", "10%", 0.1),
		Entry("a fraction of a percent", "2.5%", 0.025),
		Entry("a bare number is a percentage too", "10", 0.1),
		Entry("zero", "0%", 0.0),
		Entry("spaces", " 15 % ", 0.15),
	)

	DescribeTable("refuses a tolerance that is not one",
		func(in string) {
			_, err := ParseTolerance(in)
			Expect(err).To(MatchError(ContainSubstring("want a percentage")))
		},
		Entry("negative", "-5%"),
		Entry("words", "ten percent"),
		Entry("empty", ""),
		Entry("infinite", "Inf%"),
		Entry("not a number", "NaN"),
	)
})

var _ = Describe("a fleet against its baseline", func() {
	fleet := func(succeeded, wasted int) ledger.Report {
		return ledger.Report{Seed: 1, Results: []ledger.Result{{Scenario: "herd", Strategy: "classify-fleet",
			Outcome: ledger.OutcomeSuccess, Attempts: 21, Workload: &ledger.Workload{Turns: 20, Succeeded: succeeded,
				Attempts: 21, WastedInputTokens: wasted, MakespanMS: 67_000}}}}
	}

	It("regresses on fewer turns succeeded and on more input wasted", func() {
		c := Compare(fleet(20, 4_000), fleet(19, 8_000), 0.1)
		Expect(c.Changes).To(ConsistOf(
			HaveField("Metric", "succeeded"),
			HaveField("Metric", "wasted_input_tokens"),
		))
		Expect(c.Regressions()).To(HaveLen(2))
	})

	It("is compared from a baseline file, which holds no attempt logs", func() {
		rep := fleetReport()
		var buf bytes.Buffer
		Expect(Baseline(&buf, rep, Options{})).To(Succeed())
		Expect(buf.String()).NotTo(ContainSubstring("attempts_log"))
		base, _, err := ReadJSON(&buf)
		Expect(err).NotTo(HaveOccurred())
		Expect(Compare(base, rep, 0).Changes).To(BeEmpty())
		worse := fleetReport()
		worse.Results[1].Workload.Succeeded--
		Expect(Compare(base, worse, 0).Regressions()).To(ContainElement(HaveField("Metric", "succeeded")))
	})
})
