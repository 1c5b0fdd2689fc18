package reports

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/faultbench/faultbench/ledger"
)

// outcomeMarks are the grid's short names of the outcomes.
var outcomeMarks = map[ledger.Outcome]string{
	ledger.OutcomeSuccess:   "ok",
	ledger.OutcomeFailed:    "fail",
	ledger.OutcomeTruncated: "trunc",
	ledger.OutcomeAborted:   "abort",
	ledger.OutcomeCancelled: "cancel",
}

// winnerMark follows the cell of the verdict's winner and of each
// strategy tied with it.
const winnerMark = "*"

// turnGridNote and fleetGridNote explain the grids' cells.
const (
	turnGridNote = "Each cell: the outcome (ok, fail, trunc truncated, abort aborted, cancel cancelled) " +
		"and the attempts; * the verdict's winner (each, in a tie); " + noValue + " not run."
	fleetGridNote = "Each cell: turns succeeded/turns and the attempts; * the best fleet (each, in a tie); " + noValue + " not run."
)

// gridRows are the grid of the fleets (fleet) or of the single turns: a
// row per scenario, a column per strategy shown, each cell the outcome
// mark and the attempts (a fleet: turns succeeded/turns and attempts), the
// verdict's winner marked.
//
// With differing, only the scenarios where the strategies differ get a row
// (the text table's default view, which names the others in a line of
// their own).
func (c comparison) gridRows(fleet, differing bool) (header []string, rows [][]string) {
	var cols []string
	for _, s := range c.strategies {
		if (fleet && c.hasFleetRun[s]) || (!fleet && c.hasTurnRun[s]) {
			cols = append(cols, s)
		}
	}
	header = append([]string{"scenario"}, cols...)
	for _, v := range c.verdicts {
		if v.fleet != fleet || (differing && !c.differs(v)) {
			continue
		}
		row := []string{v.Scenario}
		for _, s := range cols {
			r, ok := c.g.cell(v.Scenario, s)
			if !ok {
				row = append(row, noValue)
				continue
			}
			var cell string
			if fleet {
				w := workloadOf(r)
				cell = formatInt(int64(w.Succeeded)) + "/" + formatInt(int64(w.Turns)) + " " + formatInt(int64(r.Attempts))
			} else {
				cell = orNoValue(outcomeMarks[r.Outcome]) + " " + formatInt(int64(r.Attempts))
			}
			if slices.Contains(v.first(), s) {
				cell += winnerMark
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return header, rows
}

// gridGap separates the grid's columns.
const gridGap = "  "

// writeGrid draws a grid as plain columns two spaces apart, every line
// within maxWidth: each strategy's name is broken after its
// hyphens to fit its column, and strategies that do not fit beside the
// scenario column go to another group below, which repeats it.
func writeGrid(buf *bytes.Buffer, header []string, rows [][]string, maxWidth int) {
	header, rows = plainRows(header), plainTable(rows)
	width := func(col int) int {
		w := 0
		for _, r := range rows {
			w = max(w, utf8.RuneCountInString(r[col]))
		}
		return w
	}
	key := max(width(0), utf8.RuneCountInString(header[0]))
	type column struct {
		index int
		width int
		name  []string
	}
	var cols []column
	for i := 1; i < len(header); i++ {
		w := width(i)
		pieces := hyphenPieces(header[i])
		for _, p := range pieces {
			w = max(w, utf8.RuneCountInString(p))
		}
		w = min(w, maxWidth-key-len(gridGap))
		cols = append(cols, column{index: i, width: w, name: joinPieces(pieces, w)})
	}
	for len(cols) > 0 {
		used, n := key, 0
		for n < len(cols) && (n == 0 || used+len(gridGap)+cols[n].width <= maxWidth) {
			used += len(gridGap) + cols[n].width
			n++
		}
		group := cols[:n]
		cols = cols[n:]
		lines := 0
		for _, c := range group {
			lines = max(lines, len(c.name))
		}
		widths := make([]int, len(group))
		for i, c := range group {
			widths[i] = c.width
		}
		for l := range lines {
			title := ""
			if l == 0 {
				title = header[0]
			}
			cells := make([]string, len(group))
			for i, c := range group {
				if l < len(c.name) {
					cells[i] = c.name[l]
				}
			}
			writeGridLine(buf, key, title, widths, cells)
		}
		rules := make([]string, len(group))
		for i, w := range widths {
			rules[i] = strings.Repeat("-", w)
		}
		writeGridLine(buf, key, strings.Repeat("-", key), widths, rules)
		for _, r := range rows {
			cells := make([]string, len(group))
			for i, c := range group {
				cells[i] = r[c.index]
			}
			writeGridLine(buf, key, r[0], widths, cells)
		}
		if len(cols) > 0 {
			buf.WriteByte('\n')
		}
	}
}

// writeGridLine writes one line of a grid group, left-aligned, without
// trailing spaces.
func writeGridLine(buf *bytes.Buffer, key int, first string, widths []int, cells []string) {
	var line strings.Builder
	line.WriteString(pad(first, key))
	for i, w := range widths {
		line.WriteString(gridGap)
		line.WriteString(pad(cells[i], w))
	}
	buf.WriteString(strings.TrimRight(line.String(), " ") + "\n")
}

// pad left-aligns s in width runes, cutting it when longer.
func pad(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if n > width {
		return string([]rune(s)[:width])
	}
	return s + strings.Repeat(" ", width-n)
}

// hyphenPieces splits a name after each hyphen: "classify-preflight" is
// "classify-", "preflight".
func hyphenPieces(name string) []string {
	var out []string
	for name != "" {
		i := strings.IndexByte(name, '-')
		if i < 0 {
			out = append(out, name)
			break
		}
		out = append(out, name[:i+1])
		name = name[i+1:]
	}
	return out
}

// joinPieces joins pieces into lines of at most width runes, a piece too
// long cut into lines of its own.
func joinPieces(pieces []string, width int) []string {
	var lines []string
	cur := ""
	for _, p := range pieces {
		for utf8.RuneCountInString(p) > width {
			if cur != "" {
				lines = append(lines, cur)
				cur = ""
			}
			r := []rune(p)
			lines = append(lines, string(r[:width]))
			p = string(r[width:])
		}
		if utf8.RuneCountInString(cur)+utf8.RuneCountInString(p) > width {
			lines = append(lines, cur)
			cur = ""
		}
		cur += p
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// differs reports whether a scenario is worth reading in detail: its
// strategies did not all reach the best outcome, or the dearest of them
// took more than twice the attempts, submitted more than twice the input
// tokens or was billed more than twice the dollars of the cheapest.
func (c comparison) differs(v ScenarioVerdict) bool {
	if len(v.Best) != len(v.Ranking) {
		return true
	}
	var minA, maxA, minT, maxT int64 = -1, 0, -1, 0
	minD, maxD := -1.0, 0.0
	for _, s := range v.Ranking {
		r, _ := c.g.cell(v.Scenario, s)
		a, t, d := int64(r.Attempts), int64(r.SubmittedInputTokens), billedUSD(r)
		if minA < 0 || a < minA {
			minA = a
		}
		if minT < 0 || t < minT {
			minT = t
		}
		if minD < 0 || d < minD {
			minD = d
		}
		maxA, maxT, maxD = max(maxA, a), max(maxT, t), max(maxD, d)
	}
	return maxA > 2*minA || maxT > 2*minT || maxD > 2*minD
}
