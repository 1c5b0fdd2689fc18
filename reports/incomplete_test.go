package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/ledger"
)

// A stopped run's report says so in every format, at its top: a banner
// in the table, the Markdown and the HTML, a comment row in the CSV, an
// error test case in the JUnit (not a green suite of the runs that
// finished), "complete": false in the JSON and the baseline. A cause read
// from a forged file is shown on one line, its control characters
// visible.
func TestAnIncompleteReportSaysSoInEveryFormat(t *testing.T) {
	rep := fixtureReport()
	rep.Stopped = &ledger.Stop{Cause: "interrupted\n# \x1b[31m", Finished: 2, Runs: 30}
	const banner = "INCOMPLETE REPORT: the run was stopped (interrupted # \\x1b[31m) with 2 of 30 runs finished"
	for _, f := range Formats() {
		var buf bytes.Buffer
		if err := Write(&buf, f, rep, Options{}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out := buf.String()
		head := out[:min(len(out), 3000)]
		switch f {
		case FormatJSON, FormatBaseline:
			if !strings.Contains(head, `"complete": false`) {
				t.Errorf("%s: not marked incomplete: %.300s", f, out)
			}
			continue
		case FormatJUnit:
			var doc struct {
				Errors int `xml:"errors,attr"`
				Suites []struct {
					Cases []struct {
						Error *struct {
							Type    string `xml:"type,attr"`
							Message string `xml:"message,attr"`
						} `xml:"error"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Errors != 1 || doc.Suites[0].Cases[0].Error == nil || doc.Suites[0].Cases[0].Error.Type != "incomplete" ||
				!strings.Contains(doc.Suites[0].Cases[0].Error.Message, banner) {
				t.Errorf("junit: no error case for the incomplete report: %.600s", out)
			}
			continue
		case FormatCSV:
			first, _, _ := strings.Cut(out, "\n")
			if first != "# "+banner+"; every figure here is of those runs only" {
				t.Errorf("csv: first row %q", first)
			}
			r := csv.NewReader(strings.NewReader(out))
			r.Comment = '#'
			if _, err := r.ReadAll(); err != nil {
				t.Errorf("csv: a reader that skips comments cannot read it: %v", err)
			}
			continue
		case FormatHTML:
			if i := strings.Index(out, `<p class="incomplete" role="alert"><strong>`+banner); i < 0 || i > strings.Index(out, "<header>") {
				t.Errorf("html: no banner: %.1500s", out)
			}
			continue
		}
		if !strings.HasPrefix(out, banner) && !strings.HasPrefix(out, "> **INCOMPLETE REPORT: the run was stopped (interrupted \\# ") {
			t.Errorf("%s: does not open with the banner: %.300s", f, out)
		}
	}
}
