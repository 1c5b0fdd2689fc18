package reports

import (
	"bytes"
	"encoding/xml"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// parsedJUnit is JUnit XML read back the way a CI system reads it.
type parsedJUnit struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failures  []struct {
				Type    string `xml:"type,attr"`
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(opts Options) parsedJUnit {
	GinkgoHelper()
	var buf bytes.Buffer
	Expect(JUnit(&buf, fixtureReport(), opts)).To(Succeed())
	var doc parsedJUnit
	Expect(xml.Unmarshal(buf.Bytes(), &doc)).To(Succeed())
	return doc
}

var _ = Describe("JUnit", func() {
	It("has a suite per scenario and a test case per strategy, all passing with no budgets broken", func() {
		doc := parseJUnit(Options{})
		Expect(doc.Tests).To(Equal(4))
		Expect(doc.Failures).To(BeZero())
		Expect(doc.Suites).To(HaveLen(2))
		Expect(doc.Suites[0].Name).To(Equal(overloadScenario))
		Expect(doc.Suites[0].Cases[1].Name).To(Equal("classify"))
		Expect(doc.Suites[0].Cases[1].Classname).To(Equal(overloadScenario))
	})

	It("puts every figure and attempt in the test case's output", func() {
		out := parseJUnit(Options{}).Suites[0].Cases[0].SystemOut
		Expect(out).To(ContainSubstring("outcome: failed (overloaded_error after 5 attempts)"))
		Expect(out).To(ContainSubstring("attempts: 5, repair calls: 0, wait: 31s"))
		Expect(out).To(ContainSubstring("attempt 5 at 15s (waited 8s): primary, max_tokens 4,096, input 104,000 -> 529 overloaded"))
		Expect(out).To(ContainSubstring("then slept 16s after the final attempt"))
	})

	It("makes a test case's broken budgets and regressions one failure, every one in its text", func() {
		doc := parseJUnit(verdictOptions())
		Expect(doc.Failures).To(Equal(2))
		Expect(doc.Suites[0].Failures).To(Equal(1))
		classify := doc.Suites[0].Cases[1]
		Expect(classify.Failures).To(HaveLen(1), "most viewers show only a case's first failure")
		Expect(classify.Failures[0].Type).To(Equal("budget,regression"))
		Expect(classify.Failures[0].Message).To(Equal("attempts is 5, expected <= 4 (and 2 more)"))
		Expect(classify.Failures[0].Text).To(ContainSubstring("classify on overloaded-then-backup: attempts is 5, expected <= 4\n" +
			"classify on overloaded-then-backup: attempts regressed from 4 to 5 (+25.0%, more than the 10% allowed)\n"))
		Expect(classify.Failures[0].Text).To(ContainSubstring("more than the 10% allowed)\noutcome: success"))
		Expect(doc.Suites[1].Cases[0].Failures[0].Message).To(Equal("wait is 31s, expected < 3s"))
		Expect(doc.Suites[1].Cases[1].Failures).To(BeEmpty(), "an improvement is no failure")
	})

	It("writes control characters as visible escapes, which XML can hold", func() {
		rep := fixtureReport()
		rep.Results[0].Reason = "bad \x00byte\x1b"
		var buf bytes.Buffer
		Expect(JUnit(&buf, rep, Options{})).To(Succeed())
		var doc parsedJUnit
		Expect(xml.Unmarshal(buf.Bytes(), &doc)).To(Succeed())
		Expect(doc.Suites[0].Cases[0].SystemOut).To(ContainSubstring(`(bad \x00byte\x1b)`))
	})

	It("reports a failed write", func() {
		Expect(JUnit(failingWriter{}, fixtureReport(), Options{})).To(MatchError(errWrite))
	})
})

var _ = Describe("JUnit's cost", func() {
	It("gives a priced case its cost as properties named as in the JSON, in its figures and on each attempt", func() {
		var buf bytes.Buffer
		Expect(JUnit(&buf, pricedReport(), Options{})).To(Succeed())
		var doc struct {
			Suites []struct {
				Name  string `xml:"name,attr"`
				Cases []struct {
					Name       string `xml:"name,attr"`
					Properties []struct {
						Name  string `xml:"name,attr"`
						Value string `xml:"value,attr"`
					} `xml:"properties>property"`
					SystemOut string `xml:"system-out"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		Expect(xml.Unmarshal(buf.Bytes(), &doc)).To(Succeed())
		Expect(doc.Suites).To(HaveLen(3))
		priced := doc.Suites[2]
		Expect(priced.Name).To(Equal(pricedScenario))
		classify := priced.Cases[1]
		props := map[string]string{}
		for _, p := range classify.Properties {
			props[p.Name] = p.Value
		}
		Expect(props).To(Equal(map[string]string{"cache_read_tokens": "36000", "cache_write_tokens": "36000",
			"billed_input_tokens": "72000", "billed_usd": "0.2181", "cache_hit_ratio": "0.5"}))
		Expect(classify.SystemOut).To(ContainSubstring("billed: $0.2181, cache read tokens: 36,000, cache write tokens: 36,000, cache hit ratio: 50%"))
		Expect(classify.SystemOut).To(ContainSubstring("input 36,000 -> 200, 400 output tokens; cache read 36,000, written 0; billed $0.0771"))
		Expect(doc.Suites[0].Cases[0].Properties).To(BeEmpty(), "an unpriced case has no properties")
		Expect(doc.Suites[0].Cases[0].SystemOut).NotTo(ContainSubstring("billed"))
	})
})
