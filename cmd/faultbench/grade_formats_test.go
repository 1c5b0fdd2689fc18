package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// formatsPack is a pack whose grade of the naive client has a finding of
// each verdict: it retries the 400 of invalid-request (fail), gets the
// answer of server-error-transient after two 500s (pass), and meets no
// wait to honour in quiet (not reached).
func formatsPack(t *testing.T) string {
	t.Helper()
	dir := gradePack(t, "invalid-request", "server-error-transient")
	quiet := `name: quiet
description: every request answered; no retry-after to honour
grade: [retry-after]
models:
  primary: {context_window: 200000, max_output: 32000}
aliases: {any: primary}
turn:
  model: primary
  max_tokens: 1024
  messages: [{count: 1, tokens: 10}]
  answer_tokens: 10
script:
  - respond: {ok: true}
`
	if err := os.WriteFile(filepath.Join(dir, "quiet.yaml"), []byte(quiet), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGradeMarkdown(t *testing.T) {
	dir := formatsPack(t)
	code, out, errOut := gradeWith(t, "naive", "--pack", dir, "--format", "markdown")
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{
		"## Report card: `" + os.Args[0] + "`\n\n1 pass, 1 fail, 1 not reached. Bounds: 10 attempts, 60 s; each scenario's process killed after 5 s.\n",
		"| check | scenario | verdict | evidence |\n| --- | --- | --- | --- |\n",
		"| permanent | invalid-request | FAIL | asked primary 11 more times after the 400 invalid\\_request, 11 of them the same body again (gaps ",
		"| recovers | server-error-transient | PASS | answered at attempt 3 (gaps ",
		"| retry-after | quiet | - | no request followed an answer that asked for a wait (1 attempt, exit 0) |",
		"What the server saw (real time):\n\n| scenario | outcome | exit | start-up | attempts | gaps | input tokens | retry-count | models | strays |\n",
		"| invalid-request | failed | 1 | ", " s | 12 | ",
		"| 0 1 2 3 4 5 6 7 8 9 10 11 | primary | 0 |",
		// the strategies' report follows, the client a column of it
		"## faultbench: 3 scenarios, 3 strategies, seed 1",
		"| scenario | classify | sdk-anthropic | client |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "## Report card") > strings.Index(out, "## faultbench:") {
		t.Errorf("the card comes after the report:\n%s", out)
	}
	_, cardOnly, _ := gradeWith(t, "naive", "--pack", dir, "--format", "markdown", "--card-only")
	if !strings.HasPrefix(cardOnly, "## Report card") || strings.Contains(cardOnly, "## faultbench:") {
		t.Errorf("--card-only:\n%s", cardOnly)
	}
}

func TestGradeJUnit(t *testing.T) {
	code, out, errOut := gradeWith(t, "naive", "--pack", formatsPack(t), "--format", "junit")
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var doc struct {
		Suites []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Skipped  int    `xml:"skipped,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				ClassName string `xml:"classname,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
				Output string `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if !strings.HasPrefix(out, xml.Header) {
		t.Errorf("no XML header:\n%s", out)
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("suites: %+v", doc.Suites)
	}
	s := doc.Suites[0]
	if s.Name != "faultbench grade: "+os.Args[0] || s.Tests != 3 || s.Failures != 1 || s.Skipped != 1 || len(s.Cases) != 3 {
		t.Errorf("suite %q: %d tests, %d failures, %d skipped, %d cases", s.Name, s.Tests, s.Failures, s.Skipped, len(s.Cases))
	}
	seen := map[string]string{}
	for _, c := range s.Cases {
		switch {
		case c.Failure != nil && c.Skipped == nil:
			seen[c.Name] = "fail: " + c.Failure.Message
		case c.Skipped != nil && c.Failure == nil:
			seen[c.Name] = "skipped: " + c.Skipped.Message
		case c.Failure == nil && c.Skipped == nil:
			seen[c.Name] = "pass: " + c.Output
		}
		if want := "grade." + strings.Split(c.Name, "/")[0]; c.ClassName != want {
			t.Errorf("%s: classname %q, want %q", c.Name, c.ClassName, want)
		}
	}
	for name, want := range map[string]string{
		"permanent/invalid-request":       "fail: asked primary 11 more times after the 400",
		"recovers/server-error-transient": "pass: answered at attempt 3",
		"retry-after/quiet":               "skipped: no request followed an answer that asked for a wait",
	} {
		if !strings.HasPrefix(seen[name], want) {
			t.Errorf("%s: %q, want it to start %q", name, seen[name], want)
		}
	}
}

func TestGradeHTML(t *testing.T) {
	code, out, errOut := gradeWith(t, "naive", "--pack", formatsPack(t), "--format", "html")
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.HasSuffix(strings.TrimSpace(out), "</html>") {
		t.Errorf("not one HTML page: %.200s … %.200s", out, out[max(0, len(out)-200):])
	}
	for _, want := range []string{"invalid-request", "server-error-transient", "quiet", ">client<", ">classify<", ">sdk-anthropic<"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
