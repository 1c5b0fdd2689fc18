package reports

import (
	"bytes"
	"encoding/csv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
)

// Text from scenario and strategy files reaches every report; none of it
// may act as markup, a formula or a terminal command there.
var _ = Describe("hostile text in a report", func() {
	const (
		hostileStrategy = "=cmd|' /C calc'!A0"
		hostileReason   = "@maintainer <!-- \x1b]0;pwned\x07"
	)
	hostileDescription := "Harmless start. <!-- everything after this is hidden\n" +
		"</details><img src=x onerror=alert(1)> ![track](https://example.invalid/p.png) @octocat " +
		"\x1b[2J\x1b[H| a | b |\n- list"

	var rep ledger.Report
	var opts Options
	BeforeEach(func() {
		rep = renamed(fixtureReport(), "classify", hostileStrategy)
		rep.Results[0].Reason = hostileReason
		opts = Options{Descriptions: map[string]string{overloadScenario: hostileDescription}}
	})

	render := func(format string) string {
		GinkgoHelper()
		var buf bytes.Buffer
		Expect(Write(&buf, format, rep, opts)).To(Succeed())
		return buf.String()
	}

	It("shows no terminal escape sequence in the table, but makes it visible", func() {
		opts.Details = true
		out := render(FormatTable)
		Expect(out).NotTo(ContainSubstring("\x1b"))
		Expect(out).NotTo(ContainSubstring("\x07"))
		Expect(out).To(ContainSubstring(`\x1b[2J\x1b[H`))
		Expect(out).To(ContainSubstring(`\x1b]0;pwned\x07`))
	})

	It("opens and closes no tag, mentions no one and embeds no image in Markdown", func() {
		out := render(FormatMarkdown)
		Expect(out).NotTo(ContainSubstring("<!--"))
		Expect(out).NotTo(ContainSubstring("<img"))
		Expect(out).NotTo(ContainSubstring("![track]"))
		Expect(out).NotTo(MatchRegexp(`@octocat|@maintainer`))
		Expect(out).NotTo(ContainSubstring("\x1b"))
		Expect(strings.Count(out, "</details>")).To(Equal(strings.Count(out, "<details")), "a description closed a fold")
		Expect(out).To(ContainSubstring("&lt;\\!-- everything after this is hidden &lt;/details&gt;"))
		Expect(out).NotTo(ContainSubstring("\n- list"), "a newline in a description started a list")
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "| ") {
				// Every row of every table has as many unescaped pipes as its header.
				Expect(strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")).To(BeNumerically("<=", 11), line)
				Expect(line).NotTo(ContainSubstring("=cmd|"))
			}
		}
	})

	It("writes the broken budgets for a CI log with no terminal escape", func() {
		var buf bytes.Buffer
		Expect(WriteViolations(&buf, []Violation{{Scenario: "s", Strategy: "\x1b]0;pwned\x07x", Field: "attempts", Budget: "<= 1", Got: "2"}})).To(Succeed())
		Expect(buf.String()).To(Equal(`broken budget: \x1b]0;pwned\x07x on s: attempts is 2, expected <= 1` + "\n"))
	})

	It("prefixes a cell a spreadsheet would evaluate in CSV", func() {
		rs, err := csv.NewReader(strings.NewReader(render(FormatCSV))).ReadAll()
		Expect(err).NotTo(HaveOccurred())
		Expect(rs[2][1]).To(Equal("'" + hostileStrategy))
		Expect(rs[1][3]).To(Equal("'"+`@maintainer <!-- \x1b]0;pwned\x07`), "the escape and the bell written as visible escapes")
		for _, r := range rs[1:] {
			for _, cell := range r {
				Expect(cell).NotTo(MatchRegexp(`^[=+\-@\t\r]`), "unguarded cell in %v", r)
			}
		}
	})

	It("escapes everything in HTML", func() {
		out := render(FormatHTML)
		Expect(out).NotTo(ContainSubstring("<!-- everything"))
		Expect(out).NotTo(ContainSubstring("<img"))
		Expect(out).To(ContainSubstring("&lt;!-- everything after this is hidden"))
	})
})
