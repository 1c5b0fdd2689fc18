package reports

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
)

func renderHTML(rep ledger.Report, opts Options) string {
	GinkgoHelper()
	var buf bytes.Buffer
	Expect(HTML(&buf, rep, opts)).To(Succeed())
	return buf.String()
}

// markX matches an attempt mark and captures its x.
var markX = regexp.MustCompile(`<rect class="mark [a-z]+" x="([0-9.]+)"`)

var _ = Describe("HTML", func() {
	It("is byte-identical for equal input", func() {
		Expect(renderHTML(fixtureReport(), verdictOptions())).To(Equal(renderHTML(fixtureReport(), verdictOptions())))
	})

	It("is one self-contained page: nothing to fetch, no script", func() {
		out := renderHTML(fixtureReport(), verdictOptions())
		Expect(out).To(HavePrefix("<!DOCTYPE html>\n"))
		Expect(out).To(HaveSuffix("</html>\n"))
		for _, ref := range []string{"http:", "https:", "src=", "<link", "<script", "<img", "@import", "//"} {
			Expect(out).NotTo(ContainSubstring(ref))
		}
		Expect(regexp.MustCompile(`url\([^#]`).FindString(out)).To(BeEmpty(), "a url() that is not a local #id")
	})

	It("draws a timeline per scenario with a mark per attempt and per repair call", func() {
		rep := fixtureReport()
		out := renderHTML(rep, Options{})
		Expect(strings.Count(out, `<svg class="timeline"`)).To(Equal(2))
		Expect(strings.Count(out, `<svg class="tokens"`)).To(Equal(2))
		attempts, repairs := 0, 0
		for _, r := range rep.Results {
			attempts += len(r.AttemptsLog)
			repairs += len(r.RepairLog)
		}
		Expect(len(markX.FindAllString(out, -1))).To(Equal(attempts))
		Expect(strings.Count(out, `<rect class="mark repair`)).To(Equal(repairs))
		Expect(out).To(ContainSubstring("<title>attempt 4 at 3s\nmodel backup, max_tokens 4,096\ninput 104,000 tokens\n-&gt; 429 rate_limit</title>"))
	})

	It("draws waits as gaps and blind's sleep after its final attempt apart", func() {
		out := renderHTML(fixtureReport(), Options{})
		Expect(out).To(ContainSubstring("<title>waited 8s before attempt 5</title>"))
		Expect(strings.Count(out, `<rect class="sleep"`)).To(Equal(2), "blind sleeps after its last attempt in both scenarios")
		Expect(out).To(ContainSubstring("<title>slept 16s after the final attempt: nothing came after it</title>"))
	})

	It("keeps marks apart and inside the plot, even many at one instant", func() {
		rep := ledger.Report{Results: []ledger.Result{{Scenario: "storm", Strategy: "kimi-code", Outcome: ledger.OutcomeFailed}}}
		for n := 1; n <= 60; n++ {
			rep.Results[0].AttemptsLog = append(rep.Results[0].AttemptsLog, ledger.Attempt{N: n, Status: 529, Kind: "overloaded"})
		}
		rep.Results[0].Attempts = 60
		xs := markX.FindAllStringSubmatch(renderHTML(rep, Options{}), -1)
		Expect(xs).To(HaveLen(60))
		prev := -1.0
		for _, m := range xs {
			x, err := strconv.ParseFloat(m[1], 64)
			Expect(err).NotTo(HaveOccurred())
			Expect(x).To(BeNumerically(">=", gutter-markWidth/2))
			Expect(x + markWidth).To(BeNumerically("<=", svgWidth))
			Expect(x).To(BeNumerically(">=", prev+markWidth), "marks overlap")
			prev = x
		}
	})

	It("escapes names and descriptions", func() {
		rep := fixtureReport()
		rep.Results[0].Strategy = `<b>"x"&`
		out := renderHTML(rep, Options{Descriptions: map[string]string{overloadScenario: "a < b"}})
		Expect(out).To(ContainSubstring("&lt;b&gt;&#34;x&#34;&amp;"))
		Expect(out).To(ContainSubstring("a &lt; b"))
		Expect(out).NotTo(ContainSubstring("<b>\"x\""))
	})

	It("leads with the verdict", func() {
		out := renderHTML(fixtureReport(), verdictOptions())
		Expect(out).To(ContainSubstring(`<h2 class="bad">2 broken budgets</h2>`))
		Expect(out).To(ContainSubstring(`<h2 class="bad">2 regressions against the baseline</h2>`))
		Expect(strings.Index(out, "broken budgets")).To(BeNumerically("<", strings.Index(out, "<h2>Summary: single turns</h2>")))
		Expect(strings.Index(out, `<p class="lead">Single turns, 2 scenarios: `)).To(BeNumerically("<", strings.Index(out, "broken budgets")),
			"the comparison comes before the budgets")
		Expect(out).To(ContainSubstring("<li><b>classify</b>: broken budget: attempts is 5, expected &lt;= 4</li>"))
		Expect(renderHTML(fixtureReport(), Options{Checked: true})).To(ContainSubstring(`<p class="good">Every budget holds.</p>`))
		Expect(renderHTML(fixtureReport(), Options{})).NotTo(ContainSubstring(`id="verdict"`))
	})

	It("says so when there are no results", func() {
		Expect(renderHTML(ledger.Report{}, Options{})).To(ContainSubstring("<p>No results.</p>"))
	})

	DescribeTable("colors a mark by what the attempt got back",
		func(status int, kind, want string) {
			Expect(classOf(ledger.Attempt{Status: status, Kind: kind}).name).To(Equal(want))
		},
		Entry("an answer", 200, "ok", "ok"),
		Entry("an answer with no kind", 200, "", "ok"),
		Entry("a truncated answer", 200, "truncated", "cut"),
		Entry("a 429", 429, "rate_limit", "rate"),
		Entry("a 529", 529, "overloaded", "overloaded"),
		Entry("a 503 by kind", 503, "server", "server"),
		Entry("a 502 with no kind", 502, "", "server"),
		Entry("an overflow", 400, "context_overflow", "request"),
		Entry("a 401", 401, "auth", "access"),
		Entry("a reset", 0, "connection", "transport"),
		Entry("no answer, no kind", 0, "", "transport"),
		Entry("a teapot", 418, "", "other"),
	)

	DescribeTable("spaces the time axis at most eight ticks apart",
		func(span, want int64) { Expect(tickStep(span)).To(Equal(want)) },
		Entry("a second", int64(1_000), int64(200)),
		Entry("31 s", int64(31_000), int64(5_000)),
		Entry("7 s", int64(7_000), int64(1_000)),
		Entry("ten minutes", int64(600_000), int64(120_000)),
		Entry("a day", int64(86_400_000), int64(14_400_000)),
	)

	It("reports a failed write", func() {
		Expect(HTML(failingWriter{}, fixtureReport(), Options{})).To(MatchError(errWrite))
	})
})

var _ = Describe("strategy names in the gutter", func() {
	It("are clipped to fit, the whole name in a tooltip", func() {
		Expect(clip("classify-preflight")).To(Equal("classify-preflight"))
		Expect(clip("my-own-strategy-with-a-long-name")).To(Equal("my-own-strategy-w..."))
		Expect(clip("überlange-strategie-namen")).To(Equal("überlange-strateg..."), "runes, not bytes")
	})
})

var _ = Describe("the timeline's time axis", func() {
	result := func(strategy string, as ...ledger.Attempt) ledger.Result {
		r := ledger.Result{Scenario: "s", Strategy: strategy, Outcome: ledger.OutcomeSuccess, AttemptsLog: as}
		for _, a := range as {
			r.WaitMS += a.WaitBeforeMS
		}
		return r
	}
	xsOf := func(svg string) []float64 {
		var xs []float64
		for _, m := range markX.FindAllStringSubmatch(svg, -1) {
			x, err := strconv.ParseFloat(m[1], 64)
			Expect(err).NotTo(HaveOccurred())
			xs = append(xs, x)
		}
		return xs
	}

	It("draws a hung attempt from when it was sent to when it ended", func() {
		// Sent at 0, no answer until the client's ten-minute deadline, then
		// one second of backoff and an answer.
		rep := ledger.Report{Results: []ledger.Result{result("classify",
			turn(1, "m", 100, 1_000, 0, 0, "timeout", 0, 600_000),
			turn(2, "m", 100, 1_000, 10, 200, "", 1_000, 601_000))}}
		out := renderHTML(rep, Options{})
		Expect(out).To(MatchRegexp(`<rect class="busy" x="160\.0" [^>]*><title>attempt 1 hung 10m: sent at 0s, ended at 10m</title>`))
		Expect(out).To(ContainSubstring(">hung 10m</text>"))
		// The ten quiet minutes are a break; the second of backoff is drawn at scale.
		Expect(out).To(ContainSubstring(`<rect class="axis-break"`))
		xs := xsOf(out)
		Expect(xs[1]-xs[0]).To(BeNumerically(">", 300), "the 1 s wait takes most of the plot: %v", xs)
	})

	It("shows no ticks when no time passed", func() {
		rep := ledger.Report{Results: []ledger.Result{result("classify",
			turn(1, "m", 100, 1_000, 0, 400, "invalid_request", 0, 0))}}
		out := renderHTML(rep, Options{})
		Expect(strings.Count(out, `<line class="grid"`)).To(Equal(1), "only 0s")
		Expect(out).NotTo(ContainSubstring(">200ms<"))
		Expect(out).To(ContainSubstring("no time passed"))
	})

	It("keeps a short run readable beside one sixty times longer (a broken axis)", func() {
		var short []ledger.Attempt
		for i, at := range []int64{0, 10_000, 20_000, 40_000, 60_000} {
			short = append(short, turn(i+1, "m", 100, 1_000, 0, 429, "rate_limit", at-max(0, []int64{0, 0, 10_000, 20_000, 40_000}[i]), at))
		}
		rep := ledger.Report{Results: []ledger.Result{
			result("short", short...),
			result("long", turn(1, "m", 100, 1_000, 0, 429, "rate_limit", 0, 0),
				turn(2, "m", 100, 1_000, 10, 200, "", 3_600_000, 3_600_000)),
		}}
		out := renderHTML(rep, Options{})
		xs := xsOf(out)
		Expect(xs).To(HaveLen(7))
		Expect(xs[4]-xs[0]).To(BeNumerically(">", plotWidth/2), "the minute of the short run spans half the plot: %v", xs)
		Expect(out).To(ContainSubstring(">skip 59m</text>"))
		Expect(xs[6]).To(BeNumerically("<=", svgWidth-rightMargin))
		// Time stays in order on the broken axis.
		Expect(xs[6]).To(BeNumerically(">", xs[4]))
	})

	It("does not break a timeline that no stretch dominates", func() {
		Expect(renderHTML(fixtureReport(), Options{})).NotTo(ContainSubstring(`class="axis-break"`))
	})

	It("infers each request's send time from the one before and its wait", func() {
		r := result("classify",
			turn(1, "m", 100, 1_000, 0, 0, "timeout", 0, 600_000),
			turn(2, "m", 100, 1_000, 0, 400, "context_overflow", 1_000, 601_000),
			turn(3, "m", 100, 1_000, 10, 200, "", 0, 601_000))
		r.RepairLog = []ledger.Attempt{{N: 1, Purpose: "repair", Status: 200, AtMS: 601_000}}
		as, rs := sendTimes(r)
		Expect([]int64{as[0].sentMS, as[1].sentMS, as[2].sentMS, rs[0].sentMS}).To(Equal([]int64{0, 601_000, 601_000, 601_000}))
	})
})

var _ = Describe("HTML's cost", func() {
	It("has a cost grid of the priced scenarios, their cost rows, and each attempt's cache and bill in its tooltip", func() {
		var buf bytes.Buffer
		Expect(HTML(&buf, pricedReport(), Options{})).To(Succeed())
		page := buf.String()
		Expect(page).To(ContainSubstring(`<section id="cost">`))
		grid := page[strings.Index(page, `<section id="cost">`):]
		grid = grid[:strings.Index(grid, "</section>")]
		Expect(grid).To(ContainSubstring("<td>" + pricedScenario + "</td><td class=\"num\">$0.8724 0%</td><td class=\"num\">$0.2181 50%</td>"))
		Expect(grid).NotTo(ContainSubstring(overloadScenario), "an unpriced scenario has no row")
		Expect(page).To(ContainSubstring("<td>billed</td>"))
		Expect(page).To(ContainSubstring("cache read 36,000, written 0\nbilled $0.0771</title>"))

		buf.Reset()
		Expect(HTML(&buf, fixtureReport(), Options{})).To(Succeed())
		Expect(buf.String()).NotTo(ContainSubstring(`<section id="cost">`))
	})
})
