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
		Expect(out).To(ContainSubstring("priced: cheapest marker $0.2181 (87%), dearest plain $0.8724 (0%)"))
		Expect(renderTable(ledger.Report{Results: []ledger.Result{{Scenario: "free", Strategy: "a", Outcome: ledger.OutcomeSuccess,
			AttemptsLog: []ledger.Attempt{}, RepairLog: []ledger.Attempt{}}}}, Options{})).NotTo(ContainSubstring("== cost"))
	})
})

// pricedScenario is a scenario whose models have prices: marker reads
// its cached prefix back, plain marks nothing and pays the full price.
const pricedScenario = "cache-agent-history"

// pricedReport is the fixture with pricedScenario added, run by blind and
// classify: blind (marking nothing) billed $0.8724, classify $0.2181 with
// 87.27 % of its input read from the cache.
func pricedReport() ledger.Report {
	rep := fixtureReport()
	cached := func(n int, read, write int, usd float64) ledger.Attempt {
		a := turn(n, "sonnet", 4096, 36_000, 400, 200, "", 0, int64(n)*1_000)
		a.CacheReadTokens, a.CacheWriteTokens, a.BilledUSD = read, write, usd
		return a
	}
	rep.Results = append(rep.Results,
		ledger.Result{Scenario: pricedScenario, Strategy: "blind", Outcome: ledger.OutcomeSuccess, Attempts: 2,
			SubmittedInputTokens: 72_000, OutputTokens: 800, Steps: 2,
			AttemptsLog: []ledger.Attempt{cached(1, 0, 0, 0.4362), cached(2, 0, 0, 0.4362)},
			Cost:        &ledger.Cost{BilledInputTokens: 72_000, BilledUSD: 0.8724}},
		ledger.Result{Scenario: pricedScenario, Strategy: "classify", Outcome: ledger.OutcomeSuccess, Attempts: 2,
			SubmittedInputTokens: 72_000, OutputTokens: 800, Steps: 2,
			AttemptsLog: []ledger.Attempt{cached(1, 0, 36_000, 0.141), cached(2, 36_000, 0, 0.0771)},
			Cost: &ledger.Cost{CacheReadTokens: 36_000, CacheWriteTokens: 36_000, BilledInputTokens: 72_000,
				BilledUSD: 0.2181, CacheHitRatio: 0.5}},
	)
	return rep
}
