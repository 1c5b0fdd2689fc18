package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/faultbench/faultbench/ledger"
)

// differenceLine is a scenario's short entry under "where the strategies
// differ", without the scenario's name (writeDifferences puts it, or the
// names of all that read the same, before it): the first place with its
// figures, then only the strategies that missed the best outcome, grouped
// by outcome ("classify: success in 2 attempts, 5 more reached it;
// failed: s11, gemini-cli after 1"); where every strategy reached it (the costs
// differ), the dearest. A fleet's names its first place, the fastest and
// how many had fewer turns succeeded, the fewest named (the grid has
// each). The full verdict line is under --details.
func differenceLine(g grouped, v ScenarioVerdict) string {
	cell := func(s string) ledger.Result { r, _ := g.cell(v.Scenario, s); return r }
	var missed []string
	for _, s := range v.Ranking {
		if !slices.Contains(v.Best, s) {
			missed = append(missed, s)
		}
	}
	var b strings.Builder
	first := v.first()
	name := v.Winner
	if n := len(v.Tied); n > 0 {
		name = fmt.Sprintf("%s and %d more (tied)", v.Winner, n)
	}
	if v.fleet {
		w := workloadOf(cell(v.Winner))
		fmt.Fprintf(&b, "best fleet %s: %s/%s turns in %s attempts", name, formatInt(int64(w.Succeeded)),
			formatInt(int64(w.Turns)), formatInt(int64(cell(v.Winner).Attempts)))
		if v.Fastest != "" {
			fmt.Fprintf(&b, "; fastest %s", v.Fastest)
		}
		if len(missed) > 0 { // the grid below has each; the fewest is named
			last := missed[len(missed)-1]
			w := workloadOf(cell(last))
			fmt.Fprintf(&b, "; %d with fewer turns, the fewest %s %s/%s", len(missed), last,
				formatInt(int64(w.Succeeded)), formatInt(int64(w.Turns)))
		}
		return b.String()
	}
	win := cell(v.Winner)
	if win.Outcome != ledger.OutcomeSuccess {
		b.WriteString("none succeeded; cheapest stop ")
	}
	fmt.Fprintf(&b, "%s: %s %s %s %s", name, orNoValue(string(win.Outcome)), inOrAfter(win),
		formatInt(int64(win.Attempts)), plural(win.Attempts, "attempt", "attempts"))
	if v.priced {
		fmt.Fprintf(&b, ", billed %s", formatUSD(billedUSD(win)))
	}
	if more := len(v.Best) - len(first); more > 0 {
		fmt.Fprintf(&b, ", %d more reached it", more)
	}
	if len(missed) == 0 {
		dear := v.Ranking[len(v.Ranking)-1]
		r := cell(dear)
		fmt.Fprintf(&b, "; dearest %s: %s attempts, %s input tokens", dear, formatInt(int64(r.Attempts)),
			formatInt(int64(r.SubmittedInputTokens)))
		if v.priced {
			fmt.Fprintf(&b, ", %s", formatUSD(billedUSD(r)))
		}
		return b.String()
	}
	b.WriteString(othersByOutcome(cell, missed))
	return b.String()
}
