package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/ledger"
)

// turnRun is a single-turn result with the figures the verdict ranks.
func turnRun(sc, st string, o ledger.Outcome, attempts, tokens int, waitMS int64) ledger.Result {
	return ledger.Result{Scenario: sc, Strategy: st, Outcome: o, Attempts: attempts, SubmittedInputTokens: tokens, WaitMS: waitMS}
}

// fleetRun is a fleet's result: its turns succeeded of turns, attempts,
// wasted tokens and makespan.
func fleetRun(sc, st string, succeeded, turns, attempts, wasted int, makespanMS int64) ledger.Result {
	o := ledger.OutcomeSuccess
	if succeeded < turns {
		o = ledger.OutcomeFailed
	}
	return ledger.Result{Scenario: sc, Strategy: st, Outcome: o, Attempts: attempts, SubmittedInputTokens: 1000 * attempts,
		Workload: &ledger.Workload{Turns: turns, Succeeded: succeeded, Failed: turns - succeeded, Attempts: attempts,
			WastedInputTokens: wasted, MakespanMS: makespanMS}}
}

func verdictFor(rep ledger.Report, sc string) ScenarioVerdict {
	GinkgoHelper()
	vs, err := Verdicts(rep)
	Expect(err).NotTo(HaveOccurred())
	for _, v := range vs {
		if v.Scenario == sc {
			return v
		}
	}
	Fail("no verdict for " + sc)
	return ScenarioVerdict{}
}

// pricedRun is turnRun billed usd.
func pricedRun(sc, st string, o ledger.Outcome, attempts int, usd float64) ledger.Result {
	r := turnRun(sc, st, o, attempts, 1000*attempts, 0)
	r.Cost = &ledger.Cost{BilledUSD: usd}
	return r
}

var _ = Describe("the verdict of a priced scenario", func() {
	It("ranks by the dollars billed before the attempts, success still first", func() {
		rep := ledger.Report{Results: []ledger.Result{
			pricedRun("cache", "blind", ledger.OutcomeSuccess, 8, 0.8724),
			pricedRun("cache", "quitter", ledger.OutcomeFailed, 1, 0.001),
			pricedRun("cache", "claude-code", ledger.OutcomeSuccess, 14, 0.2181),
			pricedRun("cache", "classify", ledger.OutcomeSuccess, 8, 0.8724),
		}}
		v := verdictFor(rep, "cache")
		Expect(v.Rule).To(Equal(PricedTurnRule))
		Expect(v.Ranking).To(Equal([]string{"claude-code", "blind", "classify", "quitter"}))
		g, _ := group(rep.Results, nil)
		Expect(verdictLine(g, v)).To(Equal("verdict: claude-code: success in 14 attempts, billed $0.2181; " +
			"success: blind, classify in 8; failed: quitter after 1"))
	})

	It("ranks a fleet by its turns succeeded, then its bill", func() {
		cheap, dear, cut := fleetRun("f", "cheap", 10, 10, 12, 0, 1000), fleetRun("f", "dear", 10, 10, 10, 0, 1000),
			fleetRun("f", "cut", 9, 10, 9, 0, 1000)
		cheap.Cost, dear.Cost, cut.Cost = &ledger.Cost{BilledUSD: 0.3}, &ledger.Cost{BilledUSD: 0.5}, &ledger.Cost{BilledUSD: 0.1}
		v := verdictFor(ledger.Report{Results: []ledger.Result{dear, cut, cheap}}, "f")
		Expect(v.Rule).To(Equal(PricedFleetRule))
		Expect(v.Ranking).To(Equal([]string{"cheap", "dear", "cut"}))
	})

	It("keeps the unpriced rule where nothing was billed, a cache or not", func() {
		a, b := pricedRun("free", "a", ledger.OutcomeSuccess, 3, 0), pricedRun("free", "b", ledger.OutcomeSuccess, 2, 0)
		v := verdictFor(ledger.Report{Results: []ledger.Result{a, b}}, "free")
		Expect(v.Rule).To(Equal(TurnRule))
		Expect(v.Winner).To(Equal("b"))
	})

	It("puts the summary's billed line after the best outcomes reached", func() {
		rep := ledger.Report{Results: []ledger.Result{
			pricedRun("one", "classify", ledger.OutcomeSuccess, 2, 0.4), pricedRun("one", "marker", ledger.OutcomeSuccess, 2, 0.1),
			pricedRun("one", "quitter", ledger.OutcomeFailed, 1, 0.01),
			pricedRun("two", "classify", ledger.OutcomeSuccess, 2, 0.4), pricedRun("two", "marker", ledger.OutcomeSuccess, 2, 0.4),
			pricedRun("two", "quitter", ledger.OutcomeFailed, 1, 0.04),
		}}
		for _, sc := range []string{"free1", "free2", "free3"} { // quitter's best outcomes are elsewhere
			rep.Results = append(rep.Results, turnRun(sc, "classify", ledger.OutcomeFailed, 5, 100, 0),
				turnRun(sc, "marker", ledger.OutcomeFailed, 5, 100, 0), turnRun(sc, "quitter", ledger.OutcomeSuccess, 1, 100, 0))
		}
		g, _ := group(rep.Results, nil)
		Expect(compare(g, "").headline(Options{})).To(ContainElement(
			"Billed vs classify, 2 priced scenarios, over those where both succeeded: marker 0.5x over 2, classify 1.0x over 2, "+
				"quitter none (2/2 failed)."), "a cheap failure is no saving: no ratio, its failures named")
		unpriced := fixtureReport()
		g, _ = group(unpriced.Results, nil)
		Expect(compare(g, "").headline(Options{})).NotTo(ContainElement(ContainSubstring("Billed")))
	})
})

var _ = Describe("the verdict", func() {
	It("never names a strategy that failed, was truncated or aborted when another succeeded", func() {
		rep := ledger.Report{Results: []ledger.Result{
			turnRun("cut", "sdk-anthropic", ledger.OutcomeFailed, 1, 15_000, 0),
			turnRun("cut", "blind", ledger.OutcomeTruncated, 1, 15_000, 0),
			turnRun("cut", "loop", ledger.OutcomeAborted, 1, 100, 0),
			turnRun("cut", "classify", ledger.OutcomeSuccess, 3, 45_000, 2_000),
		}}
		v := verdictFor(rep, "cut")
		Expect(v.Winner).To(Equal("classify"))
		Expect(v.Best).To(Equal([]string{"classify"}))
		Expect(v.Ranking).To(Equal([]string{"classify", "loop", "sdk-anthropic", "blind"}))
		g, _ := group(rep.Results, nil)
		Expect(verdictLine(g, v)).To(Equal("verdict: classify: success in 3 attempts; aborted: loop after 1; " +
			"failed: sdk-anthropic after 1; truncated: blind after 1"))
	})

	It("counts a correct fast stop as the best outcome when nobody succeeds", func() {
		rep := ledger.Report{Results: []ledger.Result{
			turnRun("400", "blind", ledger.OutcomeFailed, 5, 30_000, 31_000),
			turnRun("400", "classify", ledger.OutcomeFailed, 1, 6_000, 0),
			turnRun("400", "sdk-openai", ledger.OutcomeFailed, 1, 6_000, 0),
		}}
		v := verdictFor(rep, "400")
		Expect(v.Winner).To(Equal("classify"))
		Expect(v.Best).To(Equal([]string{"classify", "sdk-openai"}))
		g, _ := group(rep.Results, nil)
		Expect(v.Tied).To(Equal([]string{"sdk-openai"}))
		Expect(verdictLine(g, v)).To(HavePrefix("verdict: no strategy succeeded; the cheapest stop: classify, sdk-openai (tied): failed after 1 attempt"))
		c := compare(g, "")
		Expect(c.turns["classify"].best).To(Equal(int64(1)))
		Expect(c.turns["blind"].best).To(BeZero())
	})

	It("breaks a tie on outcome by attempts, then submitted input tokens, then wait and holds", func() {
		rep := ledger.Report{Results: []ledger.Result{
			turnRun("t", "a", ledger.OutcomeSuccess, 3, 100, 0),
			turnRun("t", "b", ledger.OutcomeSuccess, 2, 900, 9_000),
			turnRun("t", "c", ledger.OutcomeSuccess, 2, 500, 9_000),
			turnRun("t", "d", ledger.OutcomeSuccess, 2, 500, 1_000),
			turnRun("t", "e", ledger.OutcomeSuccess, 2, 500, 0),
		}}
		rep.Results[4].HoldMS = 2_000 // e held longer than d waited
		Expect(verdictFor(rep, "t").Ranking).To(Equal([]string{"d", "e", "c", "b", "a"}))
	})

	It("ranks fleets by turns succeeded, then attempts, and names the fastest when it is another", func() {
		rep := ledger.Report{Results: []ledger.Result{
			fleetRun("herd", "blind", 12, 20, 59, 188_000, 31_000),
			fleetRun("herd", "claude-code", 20, 20, 75, 220_000, 63_000),
			fleetRun("herd", "classify-fleet", 20, 20, 21, 4_000, 67_000),
		}}
		v := verdictFor(rep, "herd")
		Expect(v.Winner).To(Equal("classify-fleet"))
		Expect(v.Fastest).To(Equal("claude-code"), "blind ended sooner, with fewer turns done: not the fastest")
		Expect(v.Ranking).To(Equal([]string{"classify-fleet", "claude-code", "blind"}))
		Expect(v.Rule).To(Equal(FleetRule))
	})

	It("leaves hindsight's row out", func() {
		rep := ledger.Report{Results: []ledger.Result{
			turnRun("t", "blind", ledger.OutcomeFailed, 5, 100, 0),
			turnRun("t", hindsightStrategy, ledger.OutcomeSuccess, 1, 10, 0),
		}}
		Expect(verdictFor(rep, "t").Ranking).To(Equal([]string{"blind"}))
	})

	It("is in the JSON, one object per scenario; a shard's JSON has none", func() {
		var buf bytes.Buffer
		Expect(JSON(&buf, fixtureReport())).To(Succeed())
		var doc struct {
			Verdicts []map[string]any `json:"verdicts"`
		}
		Expect(json.Unmarshal(buf.Bytes(), &doc)).To(Succeed())
		Expect(doc.Verdicts).To(HaveLen(2))
		Expect(doc.Verdicts[0]).To(HaveKeyWithValue("winner", "classify"))
		Expect(doc.Verdicts[0]).To(HaveKeyWithValue("rule", TurnRule))
		Expect(doc.Verdicts[0]).To(HaveKey("ranking"))
		Expect(doc.Verdicts[0]).To(HaveKey("best_outcome"))
		buf.Reset()
		Expect(ShardJSON(&buf, fixtureReport(), Shard{Index: 1, Count: 2, First: 0, Jobs: 8})).To(Succeed())
		Expect(buf.String()).NotTo(ContainSubstring(`"verdicts"`))
	})
})

var _ = Describe("the summary of single turns", func() {
	It("is not decided by a fleet: a fleet's figures change no single-turn cell", func() {
		turns := fixtureReport()
		withFleet := fixtureReport()
		withFleet.Results = append(withFleet.Results,
			fleetRun("long-fleet", "blind", 953, 1000, 1659, 1_000_000, 146_000),
			fleetRun("long-fleet", "classify", 760, 1000, 2443, 2_000_000, 146_000))
		g1, _ := group(turns.Results, nil)
		g2, _ := group(withFleet.Results, nil)
		c1, c2 := compare(g1, ""), compare(g2, "")
		Expect(c2.turnRows()).To(Equal(c1.turnRows()))
		Expect(c2.turnCount).To(Equal(2))
		Expect(c2.fleetRows()).To(HaveLen(2), "the fleet has a summary of its own")
		Expect(c1.fleetRows()).To(BeEmpty())
	})

	It("takes the geometric mean of per-scenario ratios, so that no one scenario decides it", func() {
		rep := ledger.Report{}
		for i := range 9 { // nine scenarios where blind sends twice classify's attempts
			sc := fmt.Sprintf("s%d", i)
			rep.Results = append(rep.Results, turnRun(sc, "blind", ledger.OutcomeSuccess, 2, 200, 0),
				turnRun(sc, "classify", ledger.OutcomeSuccess, 1, 100, 0))
		}
		// One scenario where classify sends a hundred times as many.
		rep.Results = append(rep.Results, turnRun("big", "blind", ledger.OutcomeSuccess, 1, 100, 0),
			turnRun("big", "classify", ledger.OutcomeSuccess, 100, 10_000, 0))
		g, _ := group(rep.Results, nil)
		c := compare(g, "")
		// Totals: blind 19 attempts, classify 109 — 0.17x; per scenario, 2x
		// nine times and 0.01x once: 2^0.9 × 0.01^0.1 ≈ 1.2x.
		Expect(c.turns["blind"].ratioAttempts.String()).To(Equal("1.2x"))
	})

	It("takes a ratio only where both succeeded, so that no failure reads as a saving", func() {
		rep := ledger.Report{Results: []ledger.Result{
			turnRun("ok", "blind", ledger.OutcomeSuccess, 4, 400, 0), turnRun("ok", "classify", ledger.OutcomeSuccess, 2, 200, 0),
			// blind's cheap failure: a ratio of 0.5x if it counted.
			turnRun("dear", "blind", ledger.OutcomeFailed, 1, 100, 0), turnRun("dear", "classify", ledger.OutcomeSuccess, 2, 200, 0),
		}}
		g, _ := group(rep.Results, nil)
		c := compare(g, "")
		Expect(c.turns["blind"].ratioAttempts.String()).To(Equal("2.0x"))
		Expect(c.headline(Options{})).To(ContainElement(
			"Against classify, over the scenarios where both succeeded (geometric means of the ratios): " +
				"blind makes 2.0x the attempts and submits 2.0x the input tokens over 1 (1/2 failed)."))
	})
})

// The verdict's winner is a success whenever any strategy succeeded, for
// any figures.
func TestVerdictNeverCrownsAFailureOverASuccess(t *testing.T) {
	outcomes := []ledger.Outcome{ledger.OutcomeSuccess, ledger.OutcomeFailed, ledger.OutcomeTruncated,
		ledger.OutcomeAborted, ledger.OutcomeCancelled}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 9).Draw(t, "strategies")
		var rep ledger.Report
		succeeded := false
		priced := rapid.Bool().Draw(t, "priced")
		for i := range n {
			o := rapid.SampledFrom(outcomes).Draw(t, "outcome")
			succeeded = succeeded || o == ledger.OutcomeSuccess
			r := turnRun("sc", fmt.Sprintf("s%d", i), o,
				rapid.IntRange(0, 40).Draw(t, "attempts"), rapid.IntRange(0, 1e6).Draw(t, "tokens"),
				rapid.Int64Range(0, 1e7).Draw(t, "wait"))
			if priced { // a failure can be the cheapest by far
				r.Cost = &ledger.Cost{BilledUSD: float64(rapid.IntRange(0, 1e6).Draw(t, "nano-dollars")) / 1e9}
			}
			rep.Results = append(rep.Results, r)
		}
		vs, err := Verdicts(rep)
		if err != nil {
			t.Fatal(err)
		}
		v := vs[0]
		g, _ := group(rep.Results, nil)
		win, _ := g.cell("sc", v.Winner)
		if succeeded && win.Outcome != ledger.OutcomeSuccess {
			t.Fatalf("winner %s %s while another succeeded", v.Winner, win.Outcome)
		}
		if len(v.Ranking) != n || v.Best[0] != v.Winner {
			t.Fatalf("ranking %v, best %v", v.Ranking, v.Best)
		}
		for i := 1; i < len(v.Ranking); i++ {
			a, _ := g.cell("sc", v.Ranking[i-1])
			b, _ := g.cell("sc", v.Ranking[i])
			if turnCompare(a, b) > 0 {
				t.Fatalf("%s ranked before %s", v.Ranking[i-1], v.Ranking[i])
			}
		}
	})
}
