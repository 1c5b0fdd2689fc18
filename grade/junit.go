package grade

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure"`
	Error     *junitMessage `xml:"error"`
	Skipped   *junitMessage `xml:"skipped"`
	Output    string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit writes the card as JUnit XML for CI: one test suite, a test
// case per finding (check/scenario), a failure per failed check, a
// skipped case per check not reached or inconclusive; an interrupted grade
// adds a case "grade/incomplete" in error, so that CI never reads it as green.
func WriteJUnit(w io.Writer, c Card) error {
	s := junitSuite{Name: "faultbench grade: " + strings.Join(c.Client, " ")}
	if b := c.Incomplete(); b != "" {
		s.Cases = append(s.Cases, junitCase{Name: "grade/incomplete", ClassName: "grade", Error: &junitMessage{Message: b}})
		s.Errors++
	}
	for _, f := range c.Findings {
		tc := junitCase{Name: f.Check + "/" + f.Scenario, ClassName: "grade." + f.Check, Output: f.Evidence}
		switch f.Status {
		case Fail:
			tc.Failure = &junitMessage{Message: f.Evidence}
			s.Failures++
		case NotReached, Inconclusive:
			tc.Skipped = &junitMessage{Message: f.Evidence}
			s.Skipped++
		}
		s.Cases = append(s.Cases, tc)
	}
	s.Tests = len(s.Cases)
	out, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{s}}, "", "  ")
	if err != nil {
		return fmt.Errorf("grade: render JUnit: %w", err)
	}
	if _, err := fmt.Fprintf(w, "%s%s\n", xml.Header, out); err != nil {
		return fmt.Errorf("grade: write JUnit: %w", err)
	}
	return nil
}
