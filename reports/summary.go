package reports

import (
	"bytes"
	"strings"

	"github.com/faultbench/faultbench/ledger"
)

// The two strategies the summary compares, blind over classify.
const (
	blindStrategy    = "blind"
	classifyStrategy = "classify"
)

// totals is what one strategy cost over every scenario it ran.
type totals struct {
	scenarios, successes             int64
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

// writeSummary writes the summary title and table.
func writeSummary(buf *bytes.Buffer, g grouped) error {
	buf.WriteString("== summary ==\n\n")
	header, rows := summaryRows(g)
	// Headers on three lines keep the table about 100 columns wide.
	for i, h := range header {
		header[i] = strings.ReplaceAll(h, " ", "\n")
	}
	return render(buf, header, rows)
}

// summaryRows are the summary table: one row per strategy with its totals,
// then, when both blind and classify ran, a row "blind/classify" with the
// ratio of each cost (of the totals as shown, so over every scenario each
// ran).
func summaryRows(g grouped) (header []string, rows [][]string) {
	sum := make(map[string]*totals, len(g.strategies))
	for _, s := range g.strategies {
		sum[s] = &totals{}
	}
	for _, sc := range g.scenarios {
		for _, s := range g.strategies {
			if r, ok := g.cell(sc, s); ok {
				sum[s].add(r)
			}
		}
	}

	header = []string{"strategy", "scenarios", "success", "attempts", "repair calls", "wait",
		"submitted input tokens", "repair input tokens", "exposure"}
	for _, s := range g.strategies {
		t := sum[s]
		rows = append(rows, []string{
			s,
			formatInt(t.scenarios),
			formatInt(t.successes) + "/" + formatInt(t.scenarios),
			formatInt(t.attempts),
			formatInt(t.repairCalls),
			formatWait(t.waitMS),
			formatInt(t.submitted),
			formatInt(t.repairInput),
			formatInt(t.exposure),
		})
	}
	blind, okB := sum[blindStrategy]
	classify, okC := sum[classifyStrategy]
	if okB && okC {
		rows = append(rows, []string{
			blindStrategy + "/" + classifyStrategy,
			"", "", // counts, not costs: no ratio
			formatRatio(blind.attempts, classify.attempts),
			formatRatio(blind.repairCalls, classify.repairCalls),
			formatRatio(blind.waitMS, classify.waitMS),
			formatRatio(blind.submitted, classify.submitted),
			formatRatio(blind.repairInput, classify.repairInput),
			formatRatio(blind.exposure, classify.exposure),
		})
	}
	return header, rows
}
