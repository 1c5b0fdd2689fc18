package reports

import (
	"bytes"

	"github.com/faultbench/faultbench/ledger"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("regret cells", func() {
	results := func(regrets ...float64) []ledger.Result {
		var out []ledger.Result
		for i, r := range regrets {
			out = append(out, ledger.Result{Scenario: string(rune('a' + i)), Strategy: "s", Outcome: ledger.OutcomeSuccess, Regret: r})
		}
		return out
	}
	cells := func(regrets ...float64) []string {
		g, err := group(results(regrets...), nil)
		Expect(err).NotTo(HaveOccurred())
		return regretCells(g, "s")
	}

	It("gives the worst and the median; of an even count, the mean of the middle two", func() {
		Expect(cells(1.5, 4, 2.5, 1)).To(Equal([]string{"4.00x", "2.00x"}))
	})
	It("gives the middle one of an odd count", func() {
		Expect(cells(3, 1, 2)).To(Equal([]string{"3.00x", "2.00x"}))
	})
	It("leaves out a run without a regret, and says none when no run has one", func() {
		Expect(cells(0, 2)).To(Equal([]string{"2.00x", "2.00x"}))
		Expect(cells(0)).To(Equal([]string{noValue, noValue}))
	})
})

var _ = Describe("the default table's differences", func() {
	It("lists a scenario where the strategies differ, and names those where they agree", func() {
		rep := ledger.Report{Seed: 1, Results: []ledger.Result{
			{Scenario: "agree", Strategy: "a", Outcome: ledger.OutcomeSuccess, Attempts: 2},
			{Scenario: "agree", Strategy: "b", Outcome: ledger.OutcomeSuccess, Attempts: 2},
			{Scenario: "differ", Strategy: "a", Outcome: ledger.OutcomeSuccess, Attempts: 1},
			{Scenario: "differ", Strategy: "b", Outcome: ledger.OutcomeFailed, Attempts: 9},
		}}
		var buf bytes.Buffer
		Expect(Table(&buf, rep, Options{})).To(Succeed())
		out := buf.String()
		Expect(out).To(ContainSubstring("== where the strategies differ =="))
		Expect(out).To(ContainSubstring("\ndiffer: "))
		Expect(out).NotTo(ContainSubstring("\nagree: "))
		Expect(out).To(ContainSubstring("on 1 scenario: agree."))
	})
})

var _ = Describe("broken budgets by cell", func() {
	It("keeps every broken budget of a cell, in order", func() {
		vs := []Violation{
			{Scenario: "s", Strategy: "a", Field: "attempts", Budget: "<= 4", Got: "6"},
			{Scenario: "s", Strategy: "b", Field: "outcome", Budget: "success", Got: "failed"},
			{Scenario: "s", Strategy: "a", Field: "wait", Budget: "< 3s", Got: "7.5s"},
		}
		by := violationsByCell(vs)
		Expect(by[key{"s", "a"}]).To(Equal([]Violation{vs[0], vs[2]}))
		Expect(by[key{"s", "b"}]).To(Equal([]Violation{vs[1]}))
	})
})
