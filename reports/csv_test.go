package reports

import (
	"bytes"
	"encoding/csv"
	"slices"

	"github.com/faultbench/faultbench/ledger"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("CSV", func() {
	records := func(opts Options) [][]string {
		GinkgoHelper()
		var buf bytes.Buffer
		Expect(CSV(&buf, fixtureReport(), opts)).To(Succeed())
		rs, err := csv.NewReader(&buf).ReadAll()
		Expect(err).NotTo(HaveOccurred())
		return rs
	}

	It("has a header and a line per result, in the report's order, with plain numbers", func() {
		rs := records(Options{})
		Expect(rs).To(HaveLen(5))
		Expect(rs[0]).To(Equal(csvHeader))
		Expect(rs[1][:10]).To(Equal([]string{overloadScenario, "blind", "failed", "overloaded_error after 5 attempts",
			"5", "0", "31000", "520000", "0", "520000"}))
		Expect(rs[4][:2]).To(Equal([]string{overflowScenario, "classify"}))
		Expect(rs[4][9]).To(Equal("421200"), "exposure")
	})

	It("gives each result its broken budgets", func() {
		rs := records(verdictOptions())
		last := slices.Index(csvHeader, "broken_budgets")
		Expect(rs[2][last]).To(Equal("attempts is 5, expected <= 4"))
		Expect(rs[3][last]).To(Equal("wait is 31s, expected < 3s"))
		Expect(rs[1][last]).To(BeEmpty())
	})

	It("names the loop guard's warnings and what stopped an agent turn", func() {
		rep := ledger.Report{Seed: 1, Results: []ledger.Result{
			{Scenario: "loop-repeat", Strategy: "classify", Outcome: ledger.OutcomeAborted, Steps: 5, LoopWarnings: 1, LoopDetector: "repeat"},
			{Scenario: "loop-repeat", Strategy: "blind", Outcome: ledger.OutcomeAborted, Steps: 30, LoopDetector: "step_cap"},
		}}
		var buf bytes.Buffer
		Expect(CSV(&buf, rep, Options{})).To(Succeed())
		rs, err := csv.NewReader(&buf).ReadAll()
		Expect(err).NotTo(HaveOccurred())
		col := func(name string) int { return slices.Index(rs[0], name) }
		Expect(col("loop_warnings")).To(BeNumerically(">", col("steps")))
		Expect(rs[1][col("loop_warnings")]).To(Equal("1"))
		Expect(rs[1][col("loop_detector")]).To(Equal("repeat"))
		Expect(rs[2][col("loop_warnings")]).To(Equal("0"))
		Expect(rs[2][col("loop_detector")]).To(Equal("step_cap"))
	})

	It("reports a failed write", func() {
		Expect(CSV(failingWriter{}, fixtureReport(), Options{})).To(MatchError(errWrite))
	})
})

var _ = Describe("CSV's cost columns", func() {
	It("carry a priced result's cost, named as in the JSON, and stay empty without one", func() {
		var buf bytes.Buffer
		Expect(CSV(&buf, pricedReport(), Options{})).To(Succeed())
		rs, err := csv.NewReader(&buf).ReadAll()
		Expect(err).NotTo(HaveOccurred())
		col := func(name string) int {
			GinkgoHelper()
			i := slices.Index(rs[0], name)
			Expect(i).To(BeNumerically(">=", 0))
			return i
		}
		Expect(col("cache_read_tokens")).To(BeNumerically(">", col("in_flight_ms")), "after every column that came before")
		classify := rs[6]
		Expect(classify[:2]).To(Equal([]string{pricedScenario, "classify"}))
		Expect(classify[col("cache_read_tokens"):]).To(Equal([]string{"36000", "36000", "72000", "0.2181", "0.5"}))
		Expect(rs[5][col("billed_usd")]).To(Equal("0.8724"))
		Expect(rs[5][col("cache_hit_ratio")]).To(Equal("0"))
		Expect(rs[1][col("cache_read_tokens"):]).To(Equal([]string{"", "", "", "", ""}), "an unpriced result")
	})
})
