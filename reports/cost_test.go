package reports

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
)

var _ = Describe("the cost lines", func() {
	It("name the cheapest run that succeeded, not a cheaper failure, and the dearest", func() {
		res := func(strategy string, outcome ledger.Outcome, usd, ratio float64) ledger.Result {
			return ledger.Result{Scenario: "priced", Strategy: strategy, Outcome: outcome, Attempts: 1,
				AttemptsLog: []ledger.Attempt{}, RepairLog: []ledger.Attempt{},
				Cost: &ledger.Cost{BilledUSD: usd, CacheHitRatio: ratio}}
		}
		rep := ledger.Report{Results: []ledger.Result{
			res("quitter", ledger.OutcomeFailed, 0.01, 0),
			res("marker", ledger.OutcomeSuccess, 0.2181, 0.87),
			res("plain", ledger.OutcomeSuccess, 0.8724, 0),
		}}
		out := renderTable(rep, Options{})
		Expect(out).To(ContainSubstring("priced: cheapest marker $0.2181 (87% cached), dearest plain $0.8724 (0% cached)"))
		Expect(renderTable(ledger.Report{Results: []ledger.Result{{Scenario: "free", Strategy: "a", Outcome: ledger.OutcomeSuccess,
			AttemptsLog: []ledger.Attempt{}, RepairLog: []ledger.Attempt{}}}}, Options{})).NotTo(ContainSubstring("== cost"))
	})
})
