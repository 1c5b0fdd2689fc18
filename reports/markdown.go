package reports

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/ledger"
)

// MarkdownLimit is the most characters [Markdown] writes by default: a
// GitHub comment holds 65,536, and a step summary is cut at 1 MiB.
const MarkdownLimit = 60_000

// markdownCut is the line that says scenarios were left out to fit.
const markdownCut = "cut: %d %s not shown here to keep this under %s characters; see the HTML/JSON artifact."

// Markdown writes rep for a pull-request comment (GitHub-flavoured
// Markdown): a title line with the seed; the headline, the comparison
// first and the budget status second; the broken budgets and the
// regressions against a baseline, if any; the summary of the single turns
// and that of the fleets; the grid of scenarios × strategies; then each
// scenario's cost table folded in a <details> block — left open when
// something in it failed — none with opts.SummaryOnly; and the note that
// submitted tokens are not billed.
//
// The whole stays within [MarkdownLimit] characters: the scenarios'
// blocks go in while they fit, first those with a broken budget or a
// regression, then those where the strategies differ, then the others,
// each shown in the run's order; a line says how many were cut.
//
// Nothing is written unless the whole report renders. Two results for the
// same scenario and strategy are an error.
func Markdown(w io.Writer, rep ledger.Report, opts Options) error {
	g, err := group(rep.Results, opts.Strategies)
	if err != nil {
		return err
	}
	c := compare(g, opts.Reference)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "## faultbench: %d %s, %d %s, seed %d\n\n",
		len(g.scenarios), plural(len(g.scenarios), "scenario", "scenarios"),
		len(g.strategies), plural(len(g.strategies), "strategy", "strategies"), rep.Seed)
	for i, line := range c.headline(opts) {
		if i == 0 {
			line = "**" + markdownText(line) + "**"
		} else {
			line = markdownText(line)
		}
		buf.WriteString(line + "\n\n")
	}

	broken := violationsByCell(opts.Violations)
	moved := changesByCell(opts.Baseline)
	exp := expectations(opts.Expectations)
	if len(opts.Violations) > 0 {
		fmt.Fprintf(&buf, "**%d broken %s.**\n\n", len(opts.Violations), plural(len(opts.Violations), "budget", "budgets"))
		rows := make([][]string, len(opts.Violations))
		for i, v := range opts.Violations {
			rows[i] = []string{v.Scenario, v.Strategy, v.Field, v.Budget, v.Got}
		}
		renderMarkdown(&buf, []string{"scenario", "strategy", "budget", "expected", "got"}, rows, 5)
		buf.WriteByte('\n')
	}
	if c := opts.Baseline; c != nil {
		if n := len(c.Regressions()); n > 0 {
			fmt.Fprintf(&buf, "**%d %s against the baseline.** ", n, plural(n, "regression", "regressions"))
		}
		buf.WriteString(markdownText(changeCounts(*c)) + "\n\n")
		if len(c.Changes) > 0 {
			rows := make([][]string, len(c.Changes))
			for i, ch := range c.Changes {
				rows[i] = changeRow(ch)
			}
			renderMarkdown(&buf, changeHeader, rows, 3)
			buf.WriteByte('\n')
		}
	}

	if len(rep.Results) == 0 {
		buf.WriteString("No results.\n\n")
	} else {
		writeMarkdownSummary(&buf, c)
	}
	const footer = "_Submitted tokens are what the server counted as sent, not what is billed._\n"
	if !opts.SummaryOnly && len(rep.Results) > 0 {
		blocks := make(map[string][]byte, len(g.scenarios))
		for _, sc := range g.scenarios {
			blocks[sc] = markdownScenario(g, sc, opts, broken, moved, exp)
		}
		problem := func(sc string) bool {
			for _, s := range g.strategies {
				if len(broken[key{sc, s}]) > 0 || hasRegression(moved[key{sc, s}]) {
					return true
				}
			}
			return false
		}
		differs := map[string]bool{}
		for _, v := range c.verdicts {
			differs[v.Scenario] = c.differs(v)
		}
		// Room for the cut line, the footer and a margin for the counts.
		room := MarkdownLimit - utf8.RuneCount(buf.Bytes()) - len(footer) - len(markdownCut) - 40
		kept := map[string]bool{}
		for _, pass := range []func(string) bool{problem, func(sc string) bool { return differs[sc] }, func(string) bool { return true }} {
			for _, sc := range g.scenarios {
				if kept[sc] || !pass(sc) {
					continue
				}
				if n := utf8.RuneCount(blocks[sc]); n <= room {
					kept[sc] = true
					room -= n
				}
			}
		}
		for _, sc := range g.scenarios {
			if kept[sc] {
				buf.Write(blocks[sc])
			}
		}
		if cut := len(g.scenarios) - len(kept); cut > 0 {
			fmt.Fprintf(&buf, markdownCut+"\n\n", cut, plural(cut, "scenario's table", "scenarios' tables"), formatInt(MarkdownLimit))
		}
	}
	buf.WriteString(footer)

	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing Markdown: %w", err)
	}
	return nil
}

// writeMarkdownSummary writes the summaries and the grids as Markdown
// tables, each with its note.
func writeMarkdownSummary(buf *bytes.Buffer, c comparison) {
	if rows := c.turnRows(); len(rows) > 0 {
		buf.WriteString("### Summary: single turns\n\n")
		header := c.turnHeader()
		if hasRegret(c.g) {
			header = append(header, regretHeader...)
		}
		renderMarkdown(buf, header, rows, 1)
		buf.WriteString("\n_" + markdownText(c.turnNote()) + "_\n\n")
	}
	if rows := c.fleetRows(); len(rows) > 0 {
		buf.WriteString("### Summary: fleets\n\n")
		renderMarkdown(buf, c.fleetHeader(), rows, 1)
		buf.WriteString("\n_" + markdownText(fleetSummaryNote) + "_\n\n")
	}
	for _, fleet := range []bool{false, true} {
		header, rows := c.gridRows(fleet, false)
		if len(rows) == 0 {
			continue
		}
		note := turnGridNote
		if fleet {
			buf.WriteString("### Grid: fleets\n\n")
			note = fleetGridNote
		} else {
			buf.WriteString("### Grid: single turns\n\n")
		}
		renderMarkdown(buf, header, rows, len(header))
		buf.WriteString("\n_" + markdownText(note) + "_\n\n")
	}
	if header, rows := c.costRows(); len(rows) > 0 {
		buf.WriteString("### Cost: billed dollars and cache hit ratio\n\n")
		renderMarkdown(buf, header, rows, len(header))
		buf.WriteString("\n_" + markdownText(costGridNote) + "_\n\n")
	}
}

// markdownScenario is one scenario's <details> block: its outcomes in the
// summary line, its description, cost table, reasons and verdict line;
// open when something in it failed.
func markdownScenario(g grouped, sc string, opts Options, broken map[key][]Violation, moved map[key][]Change, exp map[key]Expectation) []byte {
	var buf bytes.Buffer
	open := ""
	var outcomes []string
	for _, s := range g.strategies {
		if r, ok := g.cell(sc, s); ok {
			o := orNoValue(string(r.Outcome))
			if w := r.Workload; w != nil { // a fleet: how many turns got through
				o = formatInt(int64(w.Succeeded)) + "/" + formatInt(int64(w.Turns)) + " turns"
			}
			outcomes = append(outcomes, s+" "+o)
			if len(broken[key{sc, s}]) > 0 || hasRegression(moved[key{sc, s}]) {
				open = " open"
			}
		}
	}
	fmt.Fprintf(&buf, "<details%s>\n<summary><b>%s</b>: %s</summary>\n\n", open,
		htmlText(sc), htmlText(strings.Join(outcomes, ", ")))
	if d := markdownText(opts.Descriptions[sc]); d != "" {
		buf.WriteString(d + "\n\n")
	}
	header, rows, notes := scenarioRows(g, sc, opts.AllRows, exp)
	renderMarkdown(&buf, header, rows, 1)
	v, ok := verdictOf(g, sc)
	if ok || len(notes) > 0 {
		buf.WriteByte('\n')
		for _, n := range notes {
			buf.WriteString(markdownText(n) + "<br>\n")
		}
		if ok {
			buf.WriteString(markdownText(verdictLine(g, v)) + "\n")
		}
	}
	buf.WriteString("\n</details>\n\n")
	return buf.Bytes()
}

// markdownCell is s as one table cell of Markdown that shows s as
// written (texttable.MarkdownCell).
func markdownCell(s string) string { return texttable.MarkdownCell(s) }

// markdownText is s as a line of Markdown text, as markdownCell, and a line
// starting with -, + or = (a list, a heading underline) gets its first
// character escaped.
func markdownText(s string) string {
	s = markdownCell(s)
	if s != "" && strings.ContainsRune("-+=", rune(s[0])) {
		s = `\` + s
	}
	return s
}

// htmlEscaper escapes text inside an HTML element such as <summary>, where
// GitHub still links @mentions.
var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "@&#8203;")

// htmlText is s escaped for an HTML element, on one line, control
// characters made visible.
func htmlText(s string) string {
	return htmlEscaper.Replace(texttable.Plain(strings.Join(strings.Fields(s), " ")))
}

// renderMarkdown draws one Markdown table whose first left columns are
// left-aligned and the others right-aligned. Cells are escaped and not
// padded: the table is for a renderer, and padding would double its size.
func renderMarkdown(buf *bytes.Buffer, header []string, rows [][]string, left int) {
	line := func(cells []string) {
		buf.WriteString("|")
		for _, c := range cells {
			buf.WriteString(" " + markdownCell(c) + " |")
		}
		buf.WriteByte('\n')
	}
	line(header)
	buf.WriteString("|")
	for i := range header {
		if i < left {
			buf.WriteString(" :--- |")
		} else {
			buf.WriteString(" ---: |")
		}
	}
	buf.WriteByte('\n')
	for _, r := range rows {
		line(r)
	}
}

// changesByCell groups a comparison's changes by scenario and strategy.
func changesByCell(c *Comparison) map[key][]Change {
	out := map[key][]Change{}
	if c == nil {
		return out
	}
	for _, ch := range c.Changes {
		k := key{ch.Scenario, ch.Strategy}
		out[k] = append(out[k], ch)
	}
	return out
}

func hasRegression(chs []Change) bool {
	for _, ch := range chs {
		if ch.Verdict == Regressed {
			return true
		}
	}
	return false
}
