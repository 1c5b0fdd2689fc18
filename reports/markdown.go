package reports

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/ledger"
)

// Markdown writes rep for a pull-request comment (GitHub-flavoured
// Markdown): a title line with the seed, the verdict first (broken budgets,
// regressions against a baseline), then the summary, then each scenario's
// table folded in a <details> block — left open when something in it
// failed; none with opts.SummaryOnly — and the note that submitted tokens
// are not billed.
//
// Nothing is written unless the whole report renders. Two results for the
// same scenario and strategy are an error.
func Markdown(w io.Writer, rep ledger.Report, opts Options) error {
	g, err := group(rep.Results, opts.Strategies)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "## faultbench: %d %s, %d %s, seed %d\n\n",
		len(g.scenarios), plural(len(g.scenarios), "scenario", "scenarios"),
		len(g.strategies), plural(len(g.strategies), "strategy", "strategies"), rep.Seed)

	broken := violationsByCell(opts.Violations)
	moved := changesByCell(opts.Baseline)
	exp := expectations(opts.Expectations)
	switch {
	case len(opts.Violations) > 0:
		fmt.Fprintf(&buf, "**%d broken %s.**\n\n", len(opts.Violations), plural(len(opts.Violations), "budget", "budgets"))
		rows := make([][]string, len(opts.Violations))
		for i, v := range opts.Violations {
			rows[i] = []string{v.Scenario, v.Strategy, v.Field, v.Budget, v.Got}
		}
		if err := renderMarkdown(&buf, []string{"scenario", "strategy", "budget", "expected", "got"}, rows, 5); err != nil {
			return err
		}
		buf.WriteByte('\n')
	case opts.Checked:
		buf.WriteString("Every budget holds.\n\n")
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
			if err := renderMarkdown(&buf, changeHeader, rows, 3); err != nil {
				return err
			}
			buf.WriteByte('\n')
		}
	}

	if len(rep.Results) == 0 {
		buf.WriteString("No results.\n\n")
	} else {
		buf.WriteString("### Summary\n\n")
		header, rows := summaryRows(g, exp)
		if err := renderMarkdown(&buf, header, rows, 1); err != nil {
			return err
		}
		buf.WriteByte('\n')
		if len(exp) > 0 {
			buf.WriteString("_" + markdownText(expectedNote) + "_\n\n")
		}
		if len(rows) > len(g.strategies) {
			buf.WriteString("_" + markdownText(ratioNote) + "_\n\n")
		}
	}

	for _, sc := range g.scenarios {
		if opts.SummaryOnly {
			break
		}
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
		header, rows, notes := scenarioRows(g, sc, opts.AllRows)
		if err := renderMarkdown(&buf, header, rows, 1); err != nil {
			return err
		}
		if v := scenarioVerdict(g, sc, exp); v != "" || len(notes) > 0 {
			buf.WriteByte('\n')
			for _, n := range notes {
				buf.WriteString(markdownText(n) + "<br>\n")
			}
			if v != "" {
				buf.WriteString(markdownText(v) + "\n")
			}
		}
		buf.WriteString("\n</details>\n\n")
	}
	buf.WriteString("_Submitted tokens are what the server counted as sent, not what is billed._\n")

	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing Markdown: %w", err)
	}
	return nil
}

// markdownEscaper keeps text — names, figures, a scenario's description —
// from being read as Markdown or HTML: every character with a meaning in
// GitHub-flavoured Markdown gets a backslash; <, > and & become entities,
// so no tag (<!--, </details>, <img>) is opened or closed; an @ is followed
// by a zero-width space, so no one is mentioned.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "`", "\\`", "_", `\_`, "[", `\[`, "]", `\]`, "!", `\!`, "~", `\~`,
	"#", `\#`, "&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "@&#8203;",
)

// markdownCell is s as one table cell of Markdown that shows s as
// written: white space collapsed (a newline would end the row), control
// characters made visible, and everything else escaped (markdownEscaper).
func markdownCell(s string) string {
	return markdownEscaper.Replace(texttable.Plain(strings.Join(strings.Fields(s), " ")))
}

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
// left-aligned and the others right-aligned. Cells are escaped.
func renderMarkdown(buf *bytes.Buffer, header []string, rows [][]string, left int) error {
	align := make(tw.Alignment, len(header))
	for i := range align {
		align[i] = tw.AlignRight
		if i < left {
			align[i] = tw.AlignLeft
		}
	}
	esc := func(cells []string) []string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = markdownCell(c)
		}
		return out
	}
	escaped := make([][]string, len(rows))
	for i, r := range rows {
		escaped[i] = esc(r)
	}
	t := tablewriter.NewTable(buf,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft, PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft, PerColumn: align}),
	)
	t.Header(esc(header))
	if err := t.Bulk(escaped); err != nil {
		return fmt.Errorf("reports: building Markdown table: %w", err)
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("reports: rendering Markdown table: %w", err)
	}
	return nil
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
