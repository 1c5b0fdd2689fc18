package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/fakeclient"
)

// TestGradeInterruptedSaysSoInEveryFormat interrupts a grade while the
// naive client sits on the hang scenario's request (it has no timeout),
// after invalid-request finished: exit 130, and every format says the
// report is incomplete — JSON complete:false, a banner in the table,
// Markdown and HTML, an error case in JUnit.
func TestGradeInterruptedSaysSoInEveryFormat(t *testing.T) {
	dir := gradePack(t, "hang", "invalid-request")
	t.Setenv(fakeclient.Env, "naive")
	banner := "INCOMPLETE: grade stopped (interrupted) with 1 of 2 scenarios finished"
	for _, format := range []string{"json", "table", "markdown", "html", "junit"} {
		ctx, cancel := context.WithTimeoutCause(context.Background(), 4*time.Second, errInterrupted)
		var out, errOut bytes.Buffer
		code := mainContext(ctx, []string{"grade", "--strategies", "classify", "--timeout", "60s", "--parallel", "2",
			"--pack", dir, "--format", format, "--", os.Args[0]}, &out, &errOut)
		cancel()
		if code != exitInterrupted {
			t.Fatalf("%s: exit %d, want %d: %s", format, code, exitInterrupted, errOut.String())
		}
		s := out.String()
		switch format {
		case "json":
			var doc struct {
				Complete *bool `json:"complete"`
				Grade    struct {
					Complete *bool `json:"complete"`
					Stopped  struct {
						Cause          string
						Finished, Runs int
					} `json:"stopped"`
				} `json:"grade"`
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("json: %v", err)
			}
			if doc.Complete == nil || *doc.Complete || doc.Grade.Complete == nil || *doc.Grade.Complete ||
				doc.Grade.Stopped.Cause != "interrupted" || doc.Grade.Stopped.Finished != 1 || doc.Grade.Stopped.Runs != 2 {
				t.Errorf("json does not say incomplete: %+v\n%s", doc, s)
			}
		case "junit":
			var doc struct {
				Suites []struct {
					Errors int `xml:"errors,attr"`
					Cases  []struct {
						Name  string `xml:"name,attr"`
						Error *struct {
							Message string `xml:"message,attr"`
						} `xml:"error"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("junit: %v", err)
			}
			if len(doc.Suites) != 1 || doc.Suites[0].Errors != 1 || doc.Suites[0].Cases[0].Error == nil ||
				!strings.HasPrefix(doc.Suites[0].Cases[0].Error.Message, banner) {
				t.Errorf("junit has no error case for the interruption:\n%s", s)
			}
		default:
			if !strings.Contains(s, banner) {
				t.Errorf("%s has no banner %q:\n%.600s", format, banner, s)
			}
		}
	}
}
