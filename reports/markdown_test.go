package reports

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
)

var _ = Describe("Markdown", func() {
	render := func(opts Options) string {
		GinkgoHelper()
		var buf bytes.Buffer
		Expect(Markdown(&buf, fixtureReport(), opts)).To(Succeed())
		return buf.String()
	}

	It("leads with the verdict, then the summary, then the scenarios", func() {
		out := render(verdictOptions())
		broken := strings.Index(out, "**2 broken budgets.**")
		regressions := strings.Index(out, "**2 regressions against the baseline.**")
		summary := strings.Index(out, "### Summary")
		scenario := strings.Index(out, "<summary><b>"+overloadScenario)
		headline := strings.Index(out, "**Single turns, 2 scenarios: ")
		status := strings.Index(out, "Budgets: 2 broken, listed below. Baseline: 2 regressions.")
		Expect(headline).To(BeNumerically(">", 0))
		Expect(headline < status && status < broken).To(BeTrue(), "the comparison first, the budgets second:\n%s", out)
		Expect(broken < regressions && regressions < summary && summary < scenario).To(BeTrue(), out)
		Expect(out).To(ContainSubstring("| overloaded-then-backup | classify | attempts | &lt;= 4 | 5 |"))
	})

	It("says every budget holds when they were checked and none broke", func() {
		Expect(render(Options{Checked: true})).To(ContainSubstring("Budgets: every budget holds."))
		Expect(render(Options{})).NotTo(ContainSubstring("budget"))
	})

	It("folds the scenarios, leaving open those where something failed", func() {
		out := render(Options{Violations: fixtureViolations()[:1], Checked: true})
		Expect(out).To(ContainSubstring("<details open>\n<summary><b>" + overloadScenario + "</b>: blind failed, classify success</summary>"))
		Expect(out).To(ContainSubstring("<details>\n<summary><b>" + overflowScenario))
	})

	It("escapes what Markdown would read as table syntax", func() {
		rep := fixtureReport()
		for i := range rep.Results {
			rep.Results[i].Strategy = strings.ReplaceAll(rep.Results[i].Strategy, "classify", "a|b*c")
		}
		var buf bytes.Buffer
		Expect(Markdown(&buf, rep, Options{})).To(Succeed())
		Expect(buf.String()).To(ContainSubstring(`a\|b\*c`))
		for _, line := range strings.Split(buf.String(), "\n") {
			if strings.HasPrefix(line, "|") {
				Expect(line).NotTo(ContainSubstring("a|b"))
			}
		}
	})

	It("leaves the scenarios out with SummaryOnly", func() {
		out := render(Options{SummaryOnly: true})
		Expect(out).To(ContainSubstring("### Summary"))
		Expect(out).NotTo(ContainSubstring("<details"))
	})

	It("ends with the note that submitted is not billed", func() {
		Expect(render(Options{})).To(HaveSuffix("_Submitted tokens are what the server counted as sent, not what is billed._\n"))
	})

	It("reports a failed write", func() {
		Expect(Markdown(failingWriter{}, fixtureReport(), Options{})).To(MatchError(errWrite))
	})
})

var _ = Describe("Markdown's size", func() {
	It("stays within MarkdownLimit characters, the scenarios that differ first, and says what it cut", func() {
		rep := ledger.Report{Seed: 1}
		descriptions := map[string]string{}
		for i := range 120 {
			sc := fmt.Sprintf("scenario-%03d", i)
			descriptions[sc] = strings.Repeat("A long description of what the scenario teaches. ", 20)
			blind := ledger.OutcomeSuccess
			if i%2 == 0 { // the even scenarios differ
				blind = ledger.OutcomeFailed
			}
			rep.Results = append(rep.Results,
				ledger.Result{Scenario: sc, Strategy: "blind", Outcome: blind, Attempts: 5},
				ledger.Result{Scenario: sc, Strategy: "classify", Outcome: ledger.OutcomeSuccess, Attempts: 5})
		}
		var buf bytes.Buffer
		Expect(Markdown(&buf, rep, Options{Descriptions: descriptions})).To(Succeed())
		out := buf.String()
		Expect(utf8.RuneCountInString(out)).To(BeNumerically("<=", MarkdownLimit))
		Expect(out).To(MatchRegexp(`\ncut: \d+ scenarios' tables not shown here to keep this under 60,000 characters; see the HTML/JSON artifact\.\n`))
		Expect(out).To(ContainSubstring("<b>scenario-000</b>"), "a scenario that differs is kept")
		Expect(out).NotTo(ContainSubstring("<b>scenario-119</b>"), "one where they agree is cut first")
		Expect(out).To(ContainSubstring("| scenario-119 |"), "the grid names every scenario")
	})
})
