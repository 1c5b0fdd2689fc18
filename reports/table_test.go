package reports

import (
	"bytes"
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
)

var errWrite = errors.New("disk full")

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

func renderTable(rep ledger.Report, opts Options) string {
	GinkgoHelper()
	var buf bytes.Buffer
	Expect(Table(&buf, rep, opts)).To(Succeed())
	return buf.String()
}

// only keeps the results of the named strategies.
func only(rep ledger.Report, strategies ...string) ledger.Report {
	keep := map[string]bool{}
	for _, s := range strategies {
		keep[s] = true
	}
	out := ledger.Report{Seed: rep.Seed}
	for _, r := range rep.Results {
		if keep[r.Strategy] {
			out.Results = append(out.Results, r)
		}
	}
	return out
}

// renamed gives every result of strategy from the name to.
func renamed(rep ledger.Report, from, to string) ledger.Report {
	for i := range rep.Results {
		if rep.Results[i].Strategy == from {
			rep.Results[i].Strategy = to
		}
	}
	return rep
}

// headerOf is the first header line of the first table after title.
func headerOf(out, title string) string {
	GinkgoHelper()
	_, after, found := strings.Cut(out, title)
	Expect(found).To(BeTrue(), "no %q in output", title)
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(line, "| ") {
			return line
		}
	}
	Fail("no table after " + title)
	return ""
}

func fields(line string) []string {
	var out []string
	for _, f := range strings.Split(strings.Trim(line, "|"), "|") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

var _ = Describe("Table", func() {
	var rep ledger.Report

	BeforeEach(func() {
		rep = fixtureReport()
	})

	It("is byte-identical for equal input", func() {
		opts := Options{Descriptions: fixtureDescriptions}
		Expect(renderTable(rep, opts)).To(Equal(renderTable(fixtureReport(), opts)))
	})

	It("writes only ASCII of its own, so its bytes do not depend on the locale", func() {
		out := renderTable(rep, Options{Descriptions: fixtureDescriptions})
		for i, r := range out {
			Expect(r).To(BeNumerically("<", 128), "non-ASCII %q at byte %d", r, i)
		}
	})

	It("titles each scenario in order of first appearance and wraps its description", func() {
		out := renderTable(rep, Options{Descriptions: fixtureDescriptions})
		first := strings.Index(out, "== "+overloadScenario+" ==\n")
		second := strings.Index(out, "== "+overflowScenario+" ==\n")
		summary := strings.Index(out, "== summary ==\n")
		Expect(summary).To(BeZero(), "the summary comes first")
		Expect(first).To(BeNumerically(">", summary))
		Expect(second).To(BeNumerically(">", first))
		Expect(out).To(ContainSubstring("== " + overloadScenario + " ==\nThe primary model stays overloaded"))
		description := out[first:]
		for _, line := range strings.Split(description[:strings.Index(description, "+")], "\n") {
			Expect(len(line)).To(BeNumerically("<=", DescriptionWidth))
		}
	})

	It("writes no description line for a scenario without one", func() {
		out := renderTable(rep, Options{})
		Expect(out).To(ContainSubstring("\n== " + overloadScenario + " ==\n\n+"))
	})

	rowNames := func(out string) []string {
		GinkgoHelper()
		var names []string
		section := out[strings.Index(out, "== "+overflowScenario):strings.Index(out, "Note:")]
		for _, line := range strings.Split(section, "\n")[4:] {
			if strings.HasPrefix(line, "| ") {
				names = append(names, fields(line)[0])
			}
		}
		return names
	}

	It("has one row per metric, in order, headers as written, leaving out rows zero for every strategy", func() {
		out := renderTable(rep, Options{})
		Expect(fields(headerOf(out, "== "+overloadScenario))).To(Equal([]string{"metric", "blind", "classify"}))
		Expect(rowNames(out)).To(Equal([]string{"outcome", "reason", "attempts", "repair calls", "wait",
			"submitted input tokens", "repair input tokens", "exposure", "output tokens", "compactions"}))
	})

	It("keeps every row with AllRows", func() {
		Expect(rowNames(renderTable(rep, Options{AllRows: true}))).To(Equal([]string{"outcome", "reason", "attempts",
			"repair calls", "wait", "submitted input tokens", "repair input tokens", "exposure", "output tokens",
			"fallbacks", "escalations", "adjustments", "compactions"}))
	})

	It("points the reason row to the give-up reasons under the table", func() {
		out := renderTable(rep, Options{})
		Expect(out).To(MatchRegexp(`\| reason +\| +\(1\) \| +- \|\n`))
		Expect(out).To(ContainSubstring("+\n(1) prompt is too long: 210000 tokens > 200000 maximum\n"))
	})

	It("leaves the scenarios out with SummaryOnly", func() {
		out := renderTable(rep, Options{SummaryOnly: true, Descriptions: fixtureDescriptions})
		Expect(out).To(HavePrefix("== summary ==\n"))
		Expect(out).NotTo(ContainSubstring("== " + overloadScenario))
		Expect(out).To(HaveSuffix(submittedNote + "\n"))
	})

	Describe("the expected outcomes", func() {
		var opts Options
		BeforeEach(func() {
			opts = Options{Expectations: []Expectation{
				{Scenario: overloadScenario, Strategy: "blind", Outcome: "failed", Met: true},
				{Scenario: overloadScenario, Strategy: "classify", Outcome: "success", Met: true},
				{Scenario: overflowScenario, Strategy: "blind", Outcome: "success", Met: false},
			}}
		})

		It("counts, beside success, the runs that met the outcome their scenario expects", func() {
			out := renderTable(rep, opts)
			Expect(fields(headerOf(out, "== summary"))[3]).To(Equal("as"))
			Expect(out).To(MatchRegexp(`\| blind +\| +2 \| +0/2 \| +1/2 \|`))
			Expect(out).To(MatchRegexp(`\| classify +\| +2 \| +2/2 \| +1/1 \|`))
		})

		It("names the cheapest strategy that met its expectation, in the declared order", func() {
			out := renderTable(rep, opts)
			// Both met theirs on the overload with 5 attempts; classify waited less.
			Expect(out).To(ContainSubstring("as expected: 2 of 2; cheapest of them: classify (success; 5 attempts, 5s wait, " +
				"520,000 submitted input tokens)\n"))
			Expect(out).To(ContainSubstring("as expected: none of the 1 strategy with an expected outcome\n"))
		})

		It("says nothing of expectations when there are none", func() {
			Expect(renderTable(rep, Options{})).NotTo(ContainSubstring("as expected"))
		})
	})

	It("right-aligns the numbers", func() {
		out := renderTable(rep, Options{})
		Expect(out).To(ContainSubstring("| exposure               | 1,050,000 |  421,200 |"))
	})

	It("puts the strategies in the order asked for, then the rest as they appear", func() {
		rep.Results = append(rep.Results, ledger.Result{Scenario: overflowScenario, Strategy: "s11",
			Outcome: ledger.OutcomeFailed, Attempts: 3})
		out := renderTable(rep, Options{Strategies: []string{"classify", "absent"}})
		Expect(fields(headerOf(out, overloadScenario))).To(Equal([]string{"metric", "classify", "blind", "s11"}))
		Expect(out).To(MatchRegexp(`\| attempts +\| +5 \| +5 \| +- \|`), "s11 did not run the first scenario")
	})

	It("does not write into the caller's strategy list", func() {
		order := make([]string, 1, 4)
		order[0] = "classify"
		spare := order[:4]
		renderTable(rep, Options{Strategies: order})
		Expect(spare[1:]).To(Equal([]string{"", "", ""}))
	})

	Describe("the summary", func() {
		summaryOf := func(out string) string {
			return out[strings.Index(out, "== summary ==\n"):]
		}

		It("totals each strategy and gives the blind/classify ratios", func() {
			s := summaryOf(renderTable(rep, Options{}))
			Expect(s).To(MatchRegexp(`\| blind +\| +2 \| +0/2 \| +10 \| +0 \| +1m2s \| +1,570,000 \| +0 \| +1,570,000 \|`))
			Expect(s).To(MatchRegexp(`\| classify +\| +2 \| +2/2 \| +7 \| +1 \| +5s \| +761,200 \| +180,000 \| +941,200 \|`))
			Expect(s).To(MatchRegexp(`\| ratio +\| +\| +\| +1\.4x \| +- \| +12\.4x \| +2\.1x \| +- \| +1\.7x \|`))
			Expect(s).To(ContainSubstring("\nratio blind/classify: blind's total over classify's"))
		})

		It("writes - for a ratio over zero, never 0.0x", func() {
			for i := range rep.Results {
				rep.Results[i].WaitMS = 0
			}
			s := summaryOf(renderTable(rep, Options{}))
			Expect(s).To(MatchRegexp(`\| ratio +\| +\| +\| +1\.4x \| +- \| +- \|`))
			Expect(s).NotTo(ContainSubstring("0.0x"))
		})

		DescribeTable("has a ratio row only when both blind and classify ran",
			func(mk func(ledger.Report) ledger.Report, want bool) {
				s := summaryOf(renderTable(mk(fixtureReport()), Options{}))
				if want {
					Expect(s).To(ContainSubstring("blind/classify"))
				} else {
					Expect(s).NotTo(ContainSubstring("blind/classify"))
				}
			},
			Entry("both", func(r ledger.Report) ledger.Report { return r }, true),
			Entry("both, classify listed first", func(r ledger.Report) ledger.Report {
				return ledger.Report{Results: append(only(r, "classify").Results, only(r, "blind").Results...)}
			}, true),
			Entry("blind alone", func(r ledger.Report) ledger.Report { return only(r, "blind") }, false),
			Entry("classify alone", func(r ledger.Report) ledger.Report { return only(r, "classify") }, false),
			Entry("blind and another", func(r ledger.Report) ledger.Report { return renamed(r, "classify", "kimi-code") }, false),
		)
	})

	It("ends with the note that submitted is not billed", func() {
		out := renderTable(rep, Options{})
		Expect(out).To(HaveSuffix("\n\n" + submittedNote + "\n"))
		Expect(len(submittedNote)).To(BeNumerically("<", 80))
	})

	It("says so when there are no results", func() {
		Expect(renderTable(ledger.Report{}, Options{})).To(Equal("No results.\n\n" + submittedNote + "\n"))
	})

	It("shows a missing outcome as -", func() {
		rep.Results[0].Outcome = ""
		Expect(renderTable(rep, Options{})).To(MatchRegexp(`\| outcome +\| +- \| +success \|`))
	})

	It("refuses two results for one scenario and strategy, writing nothing", func() {
		rep.Results = append(rep.Results, rep.Results[0])
		var buf bytes.Buffer
		err := Table(&buf, rep, Options{})
		Expect(err).To(MatchError(ContainSubstring(`two results for scenario "overloaded-then-backup", strategy "blind"`)))
		Expect(buf.Len()).To(BeZero())
	})

	It("reports a failed write", func() {
		Expect(Table(failingWriter{}, rep, Options{})).To(MatchError(errWrite))
	})
})
