package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/ledger"
)

// JUnit writes rep as JUnit XML for a CI system to show: the headline (the
// comparison, then the budget status) in comments after the XML
// declaration, then one <testsuite> per
// scenario and in it one <testcase> per strategy (classname the scenario,
// name the strategy), with one <failure> when a budget broke or a cost
// regressed against a baseline (most viewers show only the first
// failure of a case): its type "budget", "regression" or both, its message
// the first thing that broke ("attempts is 6, expected <= 4") and how many
// more, its body every one of them a line and then the run's figures. A
// stopped run's report (Stopped) opens with a suite holding one test case
// in <error type="incomplete">, so that a CI system shows it red. Every test case carries its figures and
// its attempts, one a line, in <system-out>. A failures count is the number
// of test cases with at least one failure. No times: a run is on a virtual
// clock, and the report does not depend on the machine.
func JUnit(w io.Writer, rep ledger.Report, opts Options) error {
	g, err := group(rep.Results, opts.Strategies)
	if err != nil {
		return err
	}
	broken := violationsByCell(opts.Violations)
	moved := changesByCell(opts.Baseline)

	doc := junitSuites{Name: "faultbench"}
	for _, sc := range g.scenarios {
		suite := junitSuite{Name: xmlText(sc), Properties: []junitProperty{{"seed", strconv.FormatUint(rep.Seed, 10)}}}
		if d := strings.Join(strings.Fields(opts.Descriptions[sc]), " "); d != "" {
			suite.Properties = append(suite.Properties, junitProperty{"description", xmlText(d)})
		}
		for _, st := range g.strategies {
			r, ok := g.cell(sc, st)
			if !ok {
				continue
			}
			figures := resultFigures(r)
			tc := junitCase{Classname: xmlText(sc), Name: xmlText(st), Properties: caseProperties(r),
				SystemOut: cdata{xmlText(figures + "\n" + attemptLines(r))}}
			var fails []junitFailure
			for _, v := range broken[key{sc, st}] {
				fails = append(fails, junitFailure{Type: "budget", Message: xmlText(v.String()),
					Text: xmlText(fmt.Sprintf("%s on %s: %s", st, sc, v))})
			}
			for _, ch := range moved[key{sc, st}] {
				if ch.Verdict != Regressed {
					continue
				}
				msg := changeSentence(ch, opts.Baseline.Tolerance)
				fails = append(fails, junitFailure{Type: "regression", Message: xmlText(msg),
					Text: xmlText(fmt.Sprintf("%s on %s: %s", st, sc, msg))})
			}
			if f := oneFailure(fails, figures); f != nil {
				tc.Failures = []junitFailure{*f}
			}
			suite.Tests++
			if len(tc.Failures) > 0 {
				suite.Failures++
			}
			suite.Cases = append(suite.Cases, tc)
		}
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Suites = append(doc.Suites, suite)
	}

	if rep.Stopped != nil { // an error a CI system shows red, never an empty green suite
		line := xmlText(incompleteLine(rep.Stopped))
		doc.Suites = append([]junitSuite{{Name: "faultbench: incomplete report", Tests: 1, Errors: 1,
			Cases: []junitCase{{Classname: "faultbench", Name: "the report is complete",
				Error: &junitFailure{Type: "incomplete", Message: line, Text: line}}}}}, doc.Suites...)
		doc.Tests++
		doc.Errors++
	}

	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	if len(rep.Results) > 0 { // the headline, for whoever opens the file
		for _, line := range compare(g, opts.Reference).headline(opts) {
			buf.WriteString("<!-- " + xmlComment(line) + " -->\n")
		}
	}
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("reports: encoding JUnit XML: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing JUnit XML: %w", err)
	}
	return nil
}

// oneFailure is a test case's failures as one <failure> element, as most
// viewers show only the first: the first's type (or "budget,regression"
// when both kinds broke) and message with how many more there are, and
// every failure a line in its text, the figures after them. nil for none.
func oneFailure(fails []junitFailure, figures string) *junitFailure {
	if len(fails) == 0 {
		return nil
	}
	out := fails[0]
	var types, lines []string
	for _, f := range fails {
		if !slices.Contains(types, f.Type) {
			types = append(types, f.Type)
		}
		lines = append(lines, f.Text)
	}
	out.Type = strings.Join(types, ",")
	if n := len(fails) - 1; n > 0 {
		out.Message += fmt.Sprintf(" (and %d more)", n)
	}
	out.Text = strings.Join(lines, "\n") + "\n" + xmlText(figures)
	return &out
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name       string           `xml:"name,attr"`
	Classname  string           `xml:"classname,attr"`
	Properties *junitProperties `xml:"properties"` // nil: none, and no element
	Failures   []junitFailure   `xml:"failure"`
	Error      *junitFailure    `xml:"error"` // nil: none, and no element
	SystemOut  cdata            `xml:"system-out"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

// caseProperties are a test case's figures as properties, named as the
// JSON names them: a fleet's workload figures (plain numbers, times in
// milliseconds), then a result's cost (dollars and the ratio as plain
// decimals); none, and no element, for a result with neither.
func caseProperties(r ledger.Result) *junitProperties {
	var ps []junitProperty
	p := func(name string, v int64) junitProperty { return junitProperty{name, strconv.FormatInt(v, 10)} }
	if w := r.Workload; w != nil {
		ps = append(ps,
			p("turns", int64(w.Turns)), p("succeeded", int64(w.Succeeded)), p("failed", int64(w.Failed)),
			p("makespan_ms", w.MakespanMS), p("p50_ms", w.P50MS), p("p95_ms", w.P95MS), p("p99_ms", w.P99MS),
			p("attempts", int64(w.Attempts)), p("status_429", int64(w.Status429)), p("status_529", int64(w.Status529)),
			p("wasted_input_tokens", int64(w.WastedInputTokens)), p("queued_ms", w.QueuedMS), p("in_flight_ms", w.InFlightMS))
	}
	if c := r.Cost; c != nil {
		dec := func(name string, v float64) junitProperty {
			return junitProperty{name, strconv.FormatFloat(v, 'f', -1, 64)}
		}
		ps = append(ps, p("cache_read_tokens", int64(c.CacheReadTokens)), p("cache_write_tokens", int64(c.CacheWriteTokens)),
			p("billed_input_tokens", int64(c.BilledInputTokens)), dec("billed_usd", c.BilledUSD), dec("cache_hit_ratio", c.CacheHitRatio))
	}
	if len(ps) == 0 {
		return nil
	}
	return &junitProperties{ps}
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// cdata is element text written as CDATA, so that its lines stay lines in
// the file (encoding/xml writes a newline in plain text as &#xA;).
type cdata struct {
	Text string `xml:",cdata"`
}

// resultFigures is a result's figures on a few lines, for a CI log.
func resultFigures(r ledger.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "outcome: %s", orNoValue(string(r.Outcome)))
	if r.Reason != "" {
		fmt.Fprintf(&b, " (%s)", r.Reason)
	}
	fmt.Fprintf(&b, "\nattempts: %s, repair calls: %s, wait: %s, holds: %s\n", formatInt(int64(r.Attempts)),
		formatInt(int64(r.RepairCalls)), formatWait(r.WaitMS), formatWait(r.HoldMS))
	fmt.Fprintf(&b, "submitted input tokens: %s, repair input tokens: %s, output tokens: %s\n",
		formatInt(int64(r.SubmittedInputTokens)), formatInt(int64(r.RepairInputTokens)), formatInt(int64(r.OutputTokens)))
	fmt.Fprintf(&b, "fallbacks: %d, escalations: %d, adjustments: %d, compactions: %d, steps: %d\n",
		r.Fallbacks, r.Escalations, r.Adjustments, r.Compactions, r.Steps)
	if w := r.Workload; w != nil {
		fmt.Fprintf(&b, "turns: %s, succeeded: %s, failed: %s, makespan: %s, turn p50/p95/p99: %s/%s/%s\n",
			formatInt(int64(w.Turns)), formatInt(int64(w.Succeeded)), formatInt(int64(w.Failed)), formatWait(w.MakespanMS),
			formatWait(w.P50MS), formatWait(w.P95MS), formatWait(w.P99MS))
		fmt.Fprintf(&b, "429 answers: %s, 529 answers: %s, wasted input tokens: %s\n",
			formatInt(int64(w.Status429)), formatInt(int64(w.Status529)), formatInt(int64(w.WastedInputTokens)))
		fmt.Fprintf(&b, "turn time: queued %s, held %s, waiting %s, in flight %s\n",
			formatWait(w.QueuedMS), formatWait(r.HoldMS), formatWait(r.WaitMS), formatWait(w.InFlightMS))
	}
	if c := r.Cost; c != nil {
		fmt.Fprintf(&b, "billed: %s, cache read tokens: %s, cache write tokens: %s, cache hit ratio: %s\n",
			formatUSD(c.BilledUSD), formatInt(int64(c.CacheReadTokens)), formatInt(int64(c.CacheWriteTokens)), formatShare(c.CacheHitRatio))
	}
	return b.String()
}

// attemptLines lists a result's attempts and repair calls, one a line:
// "attempt 2 at 1s (waited 1s): primary, max_tokens 4,096, input 104,000 -> 529 overloaded";
// in a workload with the turn and the time in flight: "attempt 5 of turn 3
// at 9s (took 3s): ...".
func attemptLines(r ledger.Result) string {
	var b strings.Builder
	line := func(what string, a ledger.Attempt) {
		fmt.Fprintf(&b, "%s %d", what, a.N)
		if a.Turn > 0 {
			fmt.Fprintf(&b, " of turn %d", a.Turn)
		}
		fmt.Fprintf(&b, " at %s", formatWait(a.AtMS))
		if a.DurationMS > 0 {
			fmt.Fprintf(&b, " (took %s)", formatWait(a.DurationMS))
		}
		if a.WaitBeforeMS > 0 {
			fmt.Fprintf(&b, " (waited %s)", formatWait(a.WaitBeforeMS))
		}
		fmt.Fprintf(&b, ": %s, max_tokens %s, input %s -> %s%s\n", a.Model, formatInt(int64(a.MaxTokens)),
			formatInt(int64(a.InputTokens)), answer(a), attemptCost(a))
	}
	for _, a := range r.AttemptsLog {
		line("attempt", a)
	}
	for _, a := range r.RepairLog {
		line("repair call", a)
	}
	if sleep := trailingSleep(r); sleep > 0 {
		fmt.Fprintf(&b, "then slept %s after the final attempt\n", formatWait(sleep))
	}
	return b.String()
}

// attemptCost is what an attempt's answer read from and wrote to the
// prompt cache and what it was billed, "" when none of them: "; cache
// read 36,000, written 400; billed $0.0771".
func attemptCost(a ledger.Attempt) string {
	var s string
	if a.CacheReadTokens > 0 || a.CacheWriteTokens > 0 {
		s = fmt.Sprintf("; cache read %s, written %s", formatInt(int64(a.CacheReadTokens)), formatInt(int64(a.CacheWriteTokens)))
	}
	if a.BilledUSD > 0 {
		s += "; billed " + formatUSD(a.BilledUSD)
	}
	return s
}

// xmlComment is s made fit for an XML comment: what XML cannot hold
// dropped, and no "--", which would end it.
func xmlComment(s string) string {
	s = xmlText(strings.Join(strings.Fields(s), " "))
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "- -")
	}
	return strings.TrimSuffix(s, "-")
}

// xmlText writes control characters (but tab and newlines) and
// bidirectional overrides as visible escapes ([texttable.Visible]), and
// drops what XML 1.0 cannot hold, which encoding/xml would copy into CDATA
// as it is. Every text and attribute from a file or a report goes through
// it.
func xmlText(s string) string {
	s = texttable.Visible(s) // and a bidirectional override, as a visible escape
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20 || r == 0xFFFE || r == 0xFFFF || (r >= 0xD800 && r <= 0xDFFF):
			return -1
		}
		return r
	}, s)
}

// answer is what an attempt got back: "529 overloaded", "200, 900 output
// tokens", "connection".
func answer(a ledger.Attempt) string {
	switch {
	case a.Status == 0 && a.Kind != "":
		return a.Kind
	case a.Status == 0:
		return "no answer"
	case a.Kind != "":
		return fmt.Sprintf("%d %s", a.Status, a.Kind)
	default:
		return fmt.Sprintf("%d, %s output tokens", a.Status, formatInt(int64(a.OutputTokens)))
	}
}

// changeSentence says what moved: "attempts regressed from 4 to 6
// (+50.0%, more than the 10% allowed)", "outcome regressed from success to
// failed".
func changeSentence(ch Change, tolerance float64) string {
	s := fmt.Sprintf("%s %s from %s to %s", ch.Metric, ch.Verdict, ch.Before, ch.After)
	if ch.Delta != "" && ch.Verdict == Regressed {
		s += fmt.Sprintf(" (%s, more than the %s allowed)", ch.Delta, formatTolerance(tolerance))
	}
	return s
}
