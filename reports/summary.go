package reports

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/ledger"
)

// The two strategies the summary compares, blind over classify.
const (
	blindStrategy    = "blind"
	classifyStrategy = "classify"
)

// ratioLabel names the summary's ratio row: what it compares.
const ratioLabel = "ratio " + blindStrategy + "/" + classifyStrategy

// ratioNote explains the ratio row under the text table.
const ratioNote = ratioLabel + ": blind's total over classify's, over every scenario each ran; " +
	noValue + " where either is 0."

// expectedNote explains the "as expected" column under the text table.
const expectedNote = "as expected: runs whose outcome is the one their scenario's expect block names for " +
	"the strategy, of the runs it names one for."

// totals is what one strategy cost over every scenario it ran.
type totals struct {
	scenarios, successes             int64
	expected, asExpected             int64
	attempts, repairCalls, waitMS    int64
	submitted, repairInput, exposure int64
}

func (t *totals) add(r ledger.Result) {
	t.scenarios++
	if r.Outcome == ledger.OutcomeSuccess {
		t.successes++
	}
	t.attempts += int64(r.Attempts)
	t.repairCalls += int64(r.RepairCalls)
	t.waitMS += r.WaitMS
	t.submitted += int64(r.SubmittedInputTokens)
	t.repairInput += int64(r.RepairInputTokens)
	t.exposure += int64(r.Exposure())
}

// writeSummary writes the summary title, table and the notes on its
// columns.
func writeSummary(buf *bytes.Buffer, g grouped, exp map[key]Expectation) error {
	buf.WriteString("== summary ==\n\n")
	header, rows := summaryRows(g, exp)
	// Headers, and the ratio row's label, on several lines keep the table
	// within 120 columns with the default strategies.
	for i, h := range header {
		header[i] = strings.ReplaceAll(h, " ", "\n")
	}
	for _, row := range rows {
		if row[0] == ratioLabel {
			row[0] = strings.Replace(ratioLabel, " ", "\n", 1)
		}
	}
	if err := render(buf, header, rows); err != nil {
		return err
	}
	if len(exp) > 0 {
		buf.WriteString(wrapLines(expectedNote))
	}
	if len(rows) > len(g.strategies) {
		buf.WriteString(wrapLines(ratioNote))
	}
	return nil
}

// wrapLines wraps a note at the description width, a newline after each
// line.
func wrapLines(s string) string {
	return strings.Join(wrapText(s, DescriptionWidth), "\n") + "\n"
}

// summaryRows are the summary table: one row per strategy with its totals
// — "as expected" counting the runs that met the outcome their scenario
// expects, of those it expects one of ([noValue] when none; no column when
// no expectation is known at all) — then, when
// both blind and classify ran, the row [ratioLabel] with the ratio of each
// cost (of the totals as shown, so over every scenario each ran).
func summaryRows(g grouped, exp map[key]Expectation) (header []string, rows [][]string) {
	sum := make(map[string]*totals, len(g.strategies))
	for _, s := range g.strategies {
		sum[s] = &totals{}
	}
	for _, sc := range g.scenarios {
		for _, s := range g.strategies {
			if r, ok := g.cell(sc, s); ok {
				sum[s].add(r)
				if e, has := exp[key{sc, s}]; has {
					sum[s].expected++
					if e.Met {
						sum[s].asExpected++
					}
				}
			}
		}
	}

	header = []string{"strategy", "scenarios", "success", "as expected", "attempts", "repair calls", "wait",
		"submitted input tokens", "repair input tokens", "exposure"}
	defer func() {
		if len(exp) == 0 { // no expect block known (merge without --scenarios): no column of -
			header = slices.Delete(header, 3, 4)
			for i := range rows {
				rows[i] = slices.Delete(rows[i], 3, 4)
			}
		}
	}()
	for _, s := range g.strategies {
		t := sum[s]
		asExpected := noValue
		if t.expected > 0 {
			asExpected = formatInt(t.asExpected) + "/" + formatInt(t.expected)
		}
		rows = append(rows, []string{
			s,
			formatInt(t.scenarios),
			formatInt(t.successes) + "/" + formatInt(t.scenarios),
			asExpected,
			formatInt(t.attempts),
			formatInt(t.repairCalls),
			formatWait(t.waitMS),
			formatInt(t.submitted),
			formatInt(t.repairInput),
			formatInt(t.exposure),
		})
	}
	if hasRegret(g) {
		header = append(header, regretHeader...)
		for i, s := range g.strategies {
			rows[i] = append(rows[i], regretCells(g, s)...)
		}
	}
	blind, okB := sum[blindStrategy]
	classify, okC := sum[classifyStrategy]
	if okB && okC {
		rows = append(rows, []string{
			ratioLabel,
			"", "", "", // counts, not costs: no ratio
			formatRatio(blind.attempts, classify.attempts),
			formatRatio(blind.repairCalls, classify.repairCalls),
			formatRatio(blind.waitMS, classify.waitMS),
			formatRatio(blind.submitted, classify.submitted),
			formatRatio(blind.repairInput, classify.repairInput),
			formatRatio(blind.exposure, classify.exposure),
		})
		if hasRegret(g) {
			rows[len(rows)-1] = append(rows[len(rows)-1], "", "")
		}
	}
	return header, rows
}

// formatRatio writes num/den followed by "x" — "3.2x", to one decimal, or
// to two significant digits under 0.1 ("0.031x") so that a small ratio never
// reads "0.0x" — or [noValue] when either is zero: no multiple of nothing,
// and none that is nothing. (An ASCII x, not "×": see noValue.)
func formatRatio(num, den int64) string {
	if num == 0 || den == 0 {
		return noValue
	}
	r := float64(num) / float64(den)
	if r < 0.095 {
		return strconv.FormatFloat(r, 'g', 2, 64) + "x"
	}
	return strconv.FormatFloat(r, 'f', 1, 64) + "x"
}
