package grade

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/ledger"
)

// Card is a client's report card: every finding, and per scenario what
// the server saw and how the process ended.
type Card struct {
	// Client is the command graded, as given.
	Client []string `json:"client"`
	// BoundAttempts and BoundMS are the bounds the checks judged against;
	// TimeoutMS the timeout of each scenario's process.
	BoundAttempts int   `json:"bound_attempts"`
	BoundMS       int64 `json:"bound_ms"`
	TimeoutMS     int64 `json:"timeout_ms"`
	// Complete and Stopped are written only for a grade that was
	// interrupted (Ctrl-C, SIGTERM): "complete": false, what stopped it,
	// and how many scenarios finished; the card holds those alone.
	Complete *bool        `json:"complete,omitempty"`
	Stopped  *ledger.Stop `json:"stopped,omitempty"`
	Findings []Finding    `json:"findings"`
	Runs     []Summary    `json:"runs"`
	// Speed is how many times fast the client's clock and the mock's ran
	// (--speed); absent for real time. Every time on a warped card is the
	// client's virtual time. Unwarped says why the warp was not applied or
	// did not take; Skipped, the scenarios that did not fit the timeout at
	// this speed and why.
	Speed    int               `json:"speed,omitempty"`
	Unwarped string            `json:"unwarped,omitempty"`
	Skipped  map[string]string `json:"skipped,omitempty"`
}

// clockLine says on which clock the card's times are, for a warped grade
// or one that skipped scenarios, and what the documented ceilings are
// beside a ladder's findings: "" otherwise.
func (c Card) clockLine() string {
	var parts []string
	if c.Speed > 1 {
		parts = append(parts, fmt.Sprintf("Clock: the client's and the mock's ran %d× fast (libfaketime); every time on this card is the client's virtual time.", c.Speed))
	}
	if c.Unwarped != "" {
		parts = append(parts, "Not warped: "+c.Unwarped+".")
	}
	for _, f := range c.Findings {
		if f.Check == "ladder" {
			parts = append(parts, Documented)
			break
		}
	}
	names := make([]string, 0, len(c.Skipped))
	for n := range c.Skipped {
		names = append(names, n)
	}
	slices.Sort(names)
	for i, n := range names {
		short, _, _ := strings.Cut(c.Skipped[n], ":")
		names[i] = n + " (" + short + ")"
	}
	if len(names) > 0 {
		parts = append(parts, "Not run, too long for the timeout at this speed: "+strings.Join(names, ", ")+".")
	}
	return strings.Join(parts, " ")
}

// timeLabel labels the times of the runs' table.
func (c Card) timeLabel() string {
	if c.Speed > 1 {
		return fmt.Sprintf("the client's virtual time, %d× real", c.Speed)
	}
	return "real time"
}

// Stop marks the card incomplete: stop says what stopped the grade, and
// how many of its scenarios finished.
func (c *Card) Stop(stop *ledger.Stop) {
	c.Complete, c.Stopped = new(bool), stop
}

// Incomplete is the banner of an interrupted grade's card, in every
// format; "" for a card that is whole.
func (c Card) Incomplete() string {
	if c.Stopped == nil {
		return ""
	}
	return fmt.Sprintf("INCOMPLETE: grade stopped (%s) with %d of %d scenarios finished; this card judges those alone, and a check of a scenario that did not finish is missing from it.",
		c.Stopped.Cause, c.Stopped.Finished, c.Stopped.Runs)
}

// Summary is one scenario's run as a card lists it.
type Summary struct {
	Scenario string `json:"scenario"`
	// Outcome is the server's: success when the last request got a
	// complete answer (Ledger).
	Outcome  string  `json:"outcome"`
	Exit     int     `json:"exit"`
	TimedOut bool    `json:"timed_out"`
	Attempts int     `json:"attempts"`
	GapsMS   []int64 `json:"gaps_ms"`
	// InputTokens is the input of every attempt as the client sent it,
	// summed: the report's client row bills the scenario's declared input
	// instead (Ledger).
	InputTokens int `json:"submitted_input_tokens"`
	// RetryCounts are the X-Stainless-Retry-Count headers sent, in
	// order; -1 for an attempt that sent none.
	RetryCounts []int    `json:"retry_counts"`
	Models      []string `json:"models"`
	// Strays counts the session's requests that were no attempt: a
	// models listing, a token count, a route the mock does not serve (a
	// wrong base URL shows here), another method than POST.
	Strays int `json:"strays,omitempty"`
	// StartupMS is the client's start-up time: from its launch to its
	// first request, when the session's clock starts; -1 when it sent
	// none. NoiseMS is the host's noise while it ran (Run.Noise).
	StartupMS int64 `json:"startup_ms"`
	NoiseMS   int64 `json:"noise_ms"`
}

// NewCard assembles the card of a client's runs.
func NewCard(command []string, runs []Run, b Bounds) Card {
	c := Card{Client: command, BoundAttempts: b.attempts(), BoundMS: b.time().Milliseconds(), Findings: Judge(runs, b), Runs: []Summary{}}
	if c.Findings == nil {
		c.Findings = []Finding{}
	}
	for _, r := range runs {
		c.TimeoutMS = max(c.TimeoutMS, r.Timeout.Milliseconds())
		c.Speed = max(c.Speed, r.Speed)
		if r.Unwarped != "" {
			c.Unwarped = r.Unwarped
		}
		if r.Skipped != "" {
			if c.Skipped == nil {
				c.Skipped = map[string]string{}
			}
			c.Skipped[r.Scenario.Name] = r.Skipped
			continue
		}
		led := Ledger(r)
		s := Summary{Scenario: r.Scenario.Name, Outcome: string(led.Outcome), Exit: r.Exit, TimedOut: r.TimedOut,
			Attempts: led.Attempts, GapsMS: []int64{}, RetryCounts: []int{}, Models: []string{},
			StartupMS: r.Startup.Milliseconds(), NoiseMS: r.Noise.Milliseconds()}
		if r.Startup < 0 {
			s.StartupMS = -1
		}
		for i, e := range r.attempts() {
			if e.Purpose != "repair" {
				s.InputTokens += e.InputTokens
			}
			if i > 0 {
				s.GapsMS = append(s.GapsMS, e.GapMS)
			}
			rc := -1
			if e.RetryCount != nil {
				rc = *e.RetryCount
			}
			s.RetryCounts = append(s.RetryCounts, rc)
			if !slices.Contains(s.Models, e.Model) {
				s.Models = append(s.Models, e.Model)
			}
		}
		s.Strays = len(r.Entries) - len(r.attempts())
		c.Runs = append(c.Runs, s)
	}
	if c.Unwarped == "" {
		c.Unwarped = notWarped(runs)
	}
	if c.Speed <= 1 {
		c.Speed = 0
	}
	return c
}

// Failed are the findings that failed.
func (c Card) Failed() []Finding {
	var out []Finding
	for _, f := range c.Findings {
		if f.Status == Fail {
			out = append(out, f)
		}
	}
	return out
}

// Tally counts the findings of each status: "9 pass, 3 fail, 2 not
// reached", and ", 1 inconclusive" when any is.
func (c Card) Tally() string {
	var p, f, n, u int
	for _, x := range c.Findings {
		switch x.Status {
		case Pass:
			p++
		case Fail:
			f++
		case Inconclusive:
			u++
		default:
			n++
		}
	}
	t := fmt.Sprintf("%d pass, %d fail, %d not reached", p, f, n)
	if u > 0 {
		t += fmt.Sprintf(", %d inconclusive", u)
	}
	return t
}

// marks are the verdicts as a card shows them.
var marks = map[Status]string{Pass: "PASS", Fail: "FAIL", NotReached: "-", Inconclusive: "?"}

// rows are the card's two tables as rows of cells, made safe for a
// terminal: the checks, and the runs.
func (c Card) rows() (checks, runs [][]string) {
	for _, f := range c.Findings {
		checks = append(checks, []string{f.Check, texttable.Plain(f.Scenario), marks[f.Status], texttable.Plain(f.Evidence)})
	}
	for _, s := range c.Runs {
		exit := strconv.Itoa(s.Exit)
		if s.TimedOut {
			exit = "killed"
		}
		rc := make([]string, len(s.RetryCounts))
		for i, n := range s.RetryCounts {
			rc[i] = "-"
			if n >= 0 {
				rc[i] = strconv.Itoa(n)
			}
		}
		start := "-"
		if s.StartupMS >= 0 {
			start = seconds(ms(s.StartupMS).Round(10 * time.Millisecond))
		}
		runs = append(runs, []string{texttable.Plain(s.Scenario), s.Outcome, exit, start, strconv.Itoa(s.Attempts), gapList(s.GapsMS),
			strconv.Itoa(s.InputTokens), strings.Join(rc, " "), texttable.Plain(strings.Join(s.Models, ", ")), strconv.Itoa(s.Strays)})
	}
	return checks, runs
}

var (
	checkHeader = []string{"check", "scenario", "verdict", "evidence"}
	runHeader   = []string{"scenario", "outcome", "exit", "start-up", "attempts", "gaps", "input tokens", "retry-count", "models", "strays"}
)

// WriteText writes the card as ASCII tables: its title, the checks, the
// runs.
func WriteText(w io.Writer, c Card) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "== report card: %s ==\n\n", texttable.Plain(strings.Join(c.Client, " ")))
	if b := c.Incomplete(); b != "" {
		fmt.Fprintf(&buf, "%s\n\n", b)
	}
	fmt.Fprintf(&buf, "%s. Bounds: %d attempts, %s; each scenario's process killed after %s.\n\n",
		c.Tally(), c.BoundAttempts, seconds(ms(c.BoundMS)), seconds(ms(c.TimeoutMS)))
	if l := c.clockLine(); l != "" {
		fmt.Fprintf(&buf, "%s\n\n", texttable.Plain(l))
	}
	checks, runs := c.rows()
	if err := texttable.Render(&buf, texttable.Table{Header: checkHeader, Rows: checks, Keys: 2, Left: 4, Width: 1 << 16}); err != nil {
		return fmt.Errorf("grade: render the card: %w", err)
	}
	buf.WriteString("\nWhat the server saw (" + c.timeLabel() + "):\n\n")
	if err := texttable.Render(&buf, texttable.Table{Header: runHeader, Rows: runs, Left: 2, Width: 1 << 16}); err != nil {
		return fmt.Errorf("grade: render the card: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("grade: write the card: %w", err)
	}
	return nil
}

// WriteMarkdown writes the card as Markdown tables.
func WriteMarkdown(w io.Writer, c Card) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "## Report card: `%s`\n\n", mdCode(strings.Join(c.Client, " ")))
	if b := c.Incomplete(); b != "" {
		fmt.Fprintf(&buf, "> **%s**\n\n", texttable.MarkdownCell(b))
	}
	fmt.Fprintf(&buf, "%s. Bounds: %d attempts, %s; each scenario's process killed after %s.\n\n",
		c.Tally(), c.BoundAttempts, seconds(ms(c.BoundMS)), seconds(ms(c.TimeoutMS)))
	if l := c.clockLine(); l != "" {
		fmt.Fprintf(&buf, "%s\n\n", texttable.MarkdownCell(l))
	}
	checks, runs := c.rows()
	mdTable(&buf, checkHeader, checks)
	buf.WriteString("\nWhat the server saw (" + c.timeLabel() + "):\n\n")
	mdTable(&buf, runHeader, runs)
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("grade: write the card: %w", err)
	}
	return nil
}

func mdTable(buf *bytes.Buffer, header []string, rows [][]string) {
	buf.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		buf.WriteString(" --- |")
	}
	buf.WriteByte('\n')
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = texttable.MarkdownCell(c)
		}
		buf.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}

// mdCode is s inside a code span, where Markdown and HTML are not read:
// pipes escaped (the span may sit in a table), backticks and newlines out.
func mdCode(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "`", "'").Replace(texttable.Plain(s))
}
