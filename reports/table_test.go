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
		out := renderTable(rep, Options{Descriptions: fixtureDescriptions, Details: true})
		first := strings.Index(out, "== "+overloadScenario+" ==\n")
		second := strings.Index(out, "== "+overflowScenario+" ==\n")
		summary := strings.Index(out, "== summary: single turns ==\n")
		Expect(out).To(HavePrefix("Single turns, 2 scenarios: "), "the headline comes first")
		Expect(first).To(BeNumerically(">", summary))
		Expect(second).To(BeNumerically(">", first))
		Expect(out).To(ContainSubstring("== " + overloadScenario + " ==\nThe primary model stays overloaded"))
		description := out[first:]
		for _, line := range strings.Split(description[:strings.Index(description, "+")], "\n") {
			Expect(len(line)).To(BeNumerically("<=", DescriptionWidth))
		}
	})

	It("writes no description line for a scenario without one", func() {
		out := renderTable(rep, Options{Details: true})
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
		out := renderTable(rep, Options{Details: true})
		Expect(fields(headerOf(out, "== "+overloadScenario))).To(Equal([]string{"metric", "blind", "classify"}))
		Expect(rowNames(out)).To(Equal([]string{"outcome", "reason", "attempts", "repair calls", "wait",
			"submitted input tokens", "repair input tokens", "exposure", "output tokens", "compactions"}))
	})

	It("keeps every row with AllRows", func() {
		Expect(rowNames(renderTable(rep, Options{AllRows: true, Details: true}))).To(Equal([]string{"outcome", "reason", "attempts",
			"repair calls", "wait", "holds", "submitted input tokens", "repair input tokens", "exposure", "output tokens",
			"fallbacks", "escalations", "adjustments", "compactions"}))
	})

	It("points the reason row to the give-up reasons under the table", func() {
		out := renderTable(rep, Options{Details: true})
		Expect(out).To(MatchRegexp(`\| reason +\| +\(1\) \| +- \|\n`))
		Expect(out).To(ContainSubstring("+\n(1) prompt is too long: 210000 tokens > 200000 maximum\n"))
	})

	It("leaves the scenarios out with SummaryOnly", func() {
		out := renderTable(rep, Options{SummaryOnly: true, Descriptions: fixtureDescriptions})
		Expect(out).To(ContainSubstring("\n== summary: single turns ==\n"))
		Expect(out).NotTo(ContainSubstring("== grid"))
		Expect(out).NotTo(ContainSubstring(overloadScenario))
		Expect(out).To(HaveSuffix(submittedNote + "\n"))
	})

	Describe("the expected outcomes", func() {
		It("shows them in the scenario tables, marking those missed", func() {
			out := renderTable(rep, Options{Details: true, Expectations: []Expectation{
				{Scenario: overloadScenario, Strategy: "blind", Outcome: "failed", Met: true},
				{Scenario: overflowScenario, Strategy: "blind", Outcome: "success", Met: false},
			}})
			Expect(out).To(MatchRegexp(`\| expected +\| +failed \| +- \|\n`))
			Expect(out).To(MatchRegexp(`\| expected +\| +success \(missed\) \| +- \|\n`))
		})

		It("says nothing of expectations when there are none", func() {
			Expect(renderTable(rep, Options{Details: true})).NotTo(ContainSubstring("expected"))
		})
	})

	It("right-aligns the numbers", func() {
		out := renderTable(rep, Options{Details: true})
		Expect(out).To(ContainSubstring("| exposure               | 1,050,000 |  421,200 |"))
	})

	It("puts the strategies in the order asked for, then the rest as they appear", func() {
		rep.Results = append(rep.Results, ledger.Result{Scenario: overflowScenario, Strategy: "s11",
			Outcome: ledger.OutcomeFailed, Attempts: 3})
		out := renderTable(rep, Options{Strategies: []string{"classify", "absent"}, Details: true})
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
			return out[strings.Index(out, "== summary: single turns ==\n"):]
		}

		It("totals each strategy and gives the geometric mean of its per-scenario ratios to classify", func() {
			s := summaryOf(renderTable(rep, Options{}))
			// blind failed both, classify succeeded: no ratio, as no
			// cheap failure may read as a saving.
			Expect(s).To(MatchRegexp(`\| blind +\| +0/2 \| +0/2 \| +10 \| +1m2s \| +0s \| +1,570,000 \| +- \|`))
			Expect(s).To(MatchRegexp(`\| classify +\| +2/2 \| +2/2 \| +7 \| +5s \| +0s \| +761,200 \| +1\.0x \|`))
		})

		It("takes --reference's strategy, else classify, else blind", func() {
			Expect(renderTable(rep, Options{Reference: "blind"})).To(ContainSubstring("\nAgainst blind"))
			Expect(renderTable(rep, Options{})).To(ContainSubstring("\nAgainst classify,"))
			Expect(renderTable(renamed(fixtureReport(), "classify", "kimi-code"), Options{})).To(ContainSubstring("\nAgainst blind"))
			Expect(renderTable(rep, Options{Reference: "absent"})).To(ContainSubstring("\nAgainst classify,"))
		})

		It("writes no ratio that reads 0.0x", func() {
			for i := range rep.Results {
				rep.Results[i].WaitMS = 0
			}
			Expect(summaryOf(renderTable(rep, Options{}))).NotTo(ContainSubstring("0.0x"))
		})
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
		Expect(renderTable(rep, Options{Details: true})).To(MatchRegexp(`\| outcome +\| +- \| +success \|`))
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
