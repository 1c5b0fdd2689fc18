package reports

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/ledger"
)

// HTML writes rep as one self-contained web page: inline CSS and inline SVG,
// no script, no font, image or style fetched from anywhere, so it opens from
// a CI artifact or a mail attachment with no network. It holds the verdict
// (broken budgets, regressions against a baseline), the summary, the
// grids, the cost grid of the scenarios with a cost, and per
// scenario its description, a timeline of each strategy's attempts on the
// virtual time axis — each attempt a mark colored by what it got back, the
// waits as gaps between them, a sleep after the final attempt drawn apart;
// for a workload, the requests in flight and the 429 and 529 answers
// (html_fleet.go) — bars of the input tokens each strategy submitted, and
// its cost table.
// Hovering a mark shows the attempt's figures.
//
// The page is built from the report alone, never the clock: the same report
// gives the same bytes. Nothing is written unless the whole page renders.
func HTML(w io.Writer, rep ledger.Report, opts Options) error {
	g, err := group(rep.Results, opts.Strategies)
	if err != nil {
		return err
	}
	broken := violationsByCell(opts.Violations)
	moved := changesByCell(opts.Baseline)
	exp := expectations(opts.Expectations)

	var b bytes.Buffer
	title := fmt.Sprintf("faultbench: %d %s, %d %s, seed %d",
		len(g.scenarios), plural(len(g.scenarios), "scenario", "scenarios"),
		len(g.strategies), plural(len(g.strategies), "strategy", "strategies"), rep.Seed)
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", esc(title), pageCSS)
	b.WriteString(svgDefs)
	if rep.Stopped != nil {
		fmt.Fprintf(&b, "<p class=\"incomplete\" role=\"alert\"><strong>%s</strong></p>\n", esc(incompleteLine(rep.Stopped)))
	}
	fmt.Fprintf(&b, "<header>\n<h1>%s</h1>\n", esc(title))
	b.WriteString("<p class=\"note\">Times are virtual: what each strategy would have waited, not how long the run took. " +
		"Submitted tokens are what the server counted as sent, not what is billed.</p>\n</header>\n")

	c := compare(g, opts.Reference)
	if len(rep.Results) > 0 {
		b.WriteString("<section id=\"headline\">\n")
		for i, line := range c.headline(opts) {
			class := ""
			if i == 0 {
				class = " class=\"lead\""
			}
			fmt.Fprintf(&b, "<p%s>%s</p>\n", class, esc(line))
		}
		b.WriteString("</section>\n")
	}

	writeHTMLVerdict(&b, opts)

	if len(rep.Results) == 0 {
		b.WriteString("<p>No results.</p>\n")
	} else {
		if rows := c.turnRows(); len(rows) > 0 {
			b.WriteString("<section id=\"summary\">\n<h2>Summary: single turns</h2>\n")
			header := c.turnHeader()
			if hasRegret(g) {
				header = append(header, regretHeader...)
			}
			writeHTMLTable(&b, header, rows, 1, "")
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n</section>\n", esc(c.turnNote()))
		}
		if rows := c.fleetRows(); len(rows) > 0 {
			b.WriteString("<section id=\"fleet-summary\">\n<h2>Summary: fleets</h2>\n")
			writeHTMLTable(&b, c.fleetHeader(), rows, 1, "")
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n</section>\n", esc(fleetSummaryNote))
		}
		for _, fleet := range []bool{false, true} {
			header, rows := c.gridRows(fleet, false)
			if len(rows) == 0 {
				continue
			}
			title, note, id := "Grid: single turns", turnGridNote, "grid"
			if fleet {
				title, note, id = "Grid: fleets", fleetGridNote, "fleet-grid"
			}
			fmt.Fprintf(&b, "<section id=\"%s\">\n<h2>%s</h2>\n", id, title)
			writeHTMLTable(&b, header, rows, len(header), "grid")
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n</section>\n", esc(note))
		}
		if header, rows := c.costRows(); len(rows) > 0 {
			b.WriteString("<section id=\"cost\">\n<h2>Cost: billed dollars and cache hit ratio</h2>\n")
			writeHTMLTable(&b, header, rows, 1, "")
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n</section>\n", esc(costGridNote))
		}
		b.WriteString("<nav><h2>Scenarios</h2>\n<ul>\n")
		for i, sc := range g.scenarios {
			fmt.Fprintf(&b, "<li><a href=\"#s%d\">%s</a></li>\n", i+1, esc(sc))
		}
		b.WriteString("</ul>\n</nav>\n")
		writeLegend(&b)
	}

	for i, sc := range g.scenarios {
		fmt.Fprintf(&b, "<section class=\"scenario\" id=\"s%d\">\n<h2>%s</h2>\n", i+1, esc(sc))
		if d := strings.Join(strings.Fields(opts.Descriptions[sc]), " "); d != "" {
			fmt.Fprintf(&b, "<p class=\"description\">%s</p>\n", esc(d))
		}
		var problems []string
		for _, st := range g.strategies {
			for _, v := range broken[key{sc, st}] {
				problems = append(problems, fmt.Sprintf("<li><b>%s</b>: broken budget: %s</li>", esc(st), esc(v.String())))
			}
			for _, ch := range moved[key{sc, st}] {
				if ch.Verdict == Regressed {
					problems = append(problems, fmt.Sprintf("<li><b>%s</b>: %s</li>", esc(st),
						esc(changeSentence(ch, opts.Baseline.Tolerance))))
				}
			}
		}
		if len(problems) > 0 {
			fmt.Fprintf(&b, "<ul class=\"problems\">\n%s\n</ul>\n", strings.Join(problems, "\n"))
		}
		if v, ok := verdictOf(g, sc); ok {
			fmt.Fprintf(&b, "<p class=\"verdict\">%s</p>\n", esc(verdictLine(g, v)))
		}
		if hasWorkload(g, sc) {
			b.WriteString("<h3>Requests in flight and 429/529 answers over virtual time</h3>\n")
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", esc(fleetNote))
			writeFleetTimeline(&b, g, sc)
		} else {
			b.WriteString("<h3>Attempts over virtual time</h3>\n")
			writeTimeline(&b, g, sc)
		}
		b.WriteString("<h3>Input tokens submitted</h3>\n")
		writeTokenBars(&b, g, sc)
		b.WriteString("<details>\n<summary>Cost table</summary>\n")
		header, rows, notes := scenarioRows(g, sc, opts.AllRows, exp)
		writeHTMLTable(&b, header, rows, 1, "")
		for _, n := range notes {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", esc(n))
		}
		b.WriteString("</details>\n</section>\n")
	}
	b.WriteString("</body>\n</html>\n")

	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("reports: writing HTML: %w", err)
	}
	return nil
}

// esc escapes text for HTML and SVG, attributes included.
func esc(s string) string { return html.EscapeString(texttable.Visible(s)) }

// writeHTMLVerdict writes what fails the build, after the headline: broken
// budgets and regressions, or that every budget holds.
func writeHTMLVerdict(b *bytes.Buffer, opts Options) {
	if len(opts.Violations) == 0 && opts.Baseline == nil && !opts.Checked {
		return
	}
	b.WriteString("<section id=\"verdict\">\n")
	switch n := len(opts.Violations); {
	case n > 0:
		fmt.Fprintf(b, "<h2 class=\"bad\">%d broken %s</h2>\n", n, plural(n, "budget", "budgets"))
		rows := make([][]string, n)
		for i, v := range opts.Violations {
			rows[i] = []string{v.Scenario, v.Strategy, v.Field, v.Budget, v.Got}
		}
		writeHTMLTable(b, []string{"scenario", "strategy", "budget", "expected", "got"}, rows, 5, "bad")
	case opts.Checked:
		b.WriteString("<h2>Budgets</h2>\n<p class=\"good\">Every budget holds.</p>\n")
	}
	if c := opts.Baseline; c != nil {
		n := len(c.Regressions())
		class := "good"
		if n > 0 {
			class = "bad"
		}
		fmt.Fprintf(b, "<h2 class=\"%s\">%d %s against the baseline</h2>\n", class, n, plural(n, "regression", "regressions"))
		fmt.Fprintf(b, "<p>%s</p>\n", esc(changeCounts(*c)))
		if len(c.Changes) > 0 {
			rows := make([][]string, len(c.Changes))
			for i, ch := range c.Changes {
				rows[i] = changeRow(ch)
			}
			writeHTMLTable(b, changeHeader, rows, 3, "")
		}
	}
	b.WriteString("</section>\n")
}

// writeHTMLTable writes a table whose first left columns are text and the
// others numbers (right-aligned).
func writeHTMLTable(b *bytes.Buffer, header []string, rows [][]string, left int, class string) {
	if class != "" {
		fmt.Fprintf(b, "<table class=\"%s\">\n<thead><tr>", class)
	} else {
		b.WriteString("<table>\n<thead><tr>")
	}
	for i, h := range header {
		fmt.Fprintf(b, "<th%s>%s</th>", numClass(i, left), esc(h))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, row := range rows {
		b.WriteString("<tr>")
		for i, c := range row {
			fmt.Fprintf(b, "<td%s>%s</td>", numClass(i, left), esc(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
}

func numClass(col, left int) string {
	if col < left {
		return ""
	}
	return " class=\"num\""
}

// writeLegend explains the colors of the timeline marks.
func writeLegend(b *bytes.Buffer) {
	b.WriteString("<div class=\"legend\"><span class=\"legend-title\">Timeline marks:</span>\n")
	for _, c := range answerClasses {
		fmt.Fprintf(b, "<span><i class=\"swatch\" style=\"background:%s\"></i>%s</span>\n", c.color, esc(c.label))
	}
	fmt.Fprintf(b, "<span><i class=\"swatch diamond\" style=\"background:%s\"></i>repair call (its own row)</span>\n", answerClasses[0].color)
	fmt.Fprintf(b, "<span><i class=\"swatch wait\"></i>wait between attempts</span>\n")
	fmt.Fprintf(b, "<span><i class=\"swatch sleep\"></i>sleep after the final attempt</span>\n")
	fmt.Fprintf(b, "<span><i class=\"swatch busy\"></i>an attempt that took time (a hang)</span>\n")
	fmt.Fprintf(b, "<span><i class=\"swatch break\"></i>skip 10m: time not drawn to scale</span>\n")
	b.WriteString("</div>\n")
}

// svgDefs holds what the timelines share: the hatching of a sleep after the
// final attempt.
const svgDefs = `<svg class="defs" width="0" height="0" aria-hidden="true"><defs>` +
	`<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
	`<rect width="6" height="6" fill="#fff"/><rect width="3" height="6" fill="#f4a6a6"/></pattern></defs></svg>
`

// pageCSS is the whole style sheet, inline.
const pageCSS = `:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --bad: #b42318; --good: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 24px 32px 48px; max-width: 1080px; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Roboto, sans-serif; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 14px; margin: 18px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
h2.bad { color: var(--bad); border-color: var(--bad); }
h2.good { color: var(--good); border-color: var(--good); }
p.good { color: var(--good); }
#headline p { margin: 4px 0; max-width: 100ch; }
#headline p.lead { font-size: 17px; font-weight: 600; }
table.grid td { text-align: left; }
.note, .description { color: var(--muted); margin: 4px 0 8px; max-width: 80ch; }
.description { color: var(--ink); }
table { border-collapse: collapse; margin: 8px 0 12px; font-size: 14px; }
th, td { padding: 4px 12px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { background: #f6f8fa; font-weight: 600; white-space: normal; vertical-align: bottom; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.bad th { background: #fdecea; }
ul.problems { color: var(--bad); margin: 6px 0; padding-left: 20px; }
nav ul { columns: 3; padding-left: 20px; margin: 4px 0; }
nav h2 { font-size: 16px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; font-size: 13px; color: var(--muted); margin: 16px 0 0;
  padding: 8px 12px; background: #f6f8fa; border-radius: 6px; }
.legend-title { font-weight: 600; color: var(--ink); }
.swatch { display: inline-block; width: 10px; height: 14px; margin-right: 5px; vertical-align: -2px; border-radius: 2px; }
.swatch.diamond { width: 10px; height: 10px; transform: rotate(45deg); vertical-align: 0; margin: 0 7px 0 2px; }
.swatch.busy { width: 22px; height: 10px; background: #24292f; opacity: .45; vertical-align: 0; }
.swatch.break { width: 22px; height: 14px; background: #f6f8fa; outline: 1px solid #d1d9e0; }
.swatch.wait { width: 22px; height: 6px; background: #9ec5fe; vertical-align: 2px; }
.swatch.sleep { width: 22px; height: 6px; background: repeating-linear-gradient(45deg, #f4a6a6 0 3px, #fff 3px 6px);
  outline: 1px solid #e06666; vertical-align: 2px; }
svg { display: block; width: 100%; height: auto; margin: 4px 0 8px; }
svg.defs { position: absolute; width: 0; height: 0; margin: 0; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Roboto, sans-serif; fill: var(--ink); }
svg .strategy { font-size: 13px; font-weight: 600; }
svg .small { font-size: 11px; fill: var(--muted); }
svg .label { font-size: 10px; }
svg .axis { stroke: #8c959f; stroke-width: 1; }
svg .grid { stroke: #eaeef2; stroke-width: 1; }
svg .lane-sep { stroke: #d1d9e0; stroke-width: 1; }
svg .axis-break-edge { stroke: #59636e; stroke-width: 1.2; }
svg .break-label { font-style: italic; }
details { margin: 8px 0; }
summary { cursor: pointer; color: var(--muted); }
@media print { details { display: block; } body { padding: 0; } }
`
