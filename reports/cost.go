package reports

import (
	"bytes"
	"strconv"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/ledger"
)

// The cost figures (docs/cost.md): shown for the scenarios whose results
// carry a ledger.Cost (their models have prices, or the prompt cache was
// used), as rows of the scenario's table and as a grid of its own.

// costGridNote explains the cost grid's cells.
const costGridNote = "Each cell: the dollars billed (prompt cache reads and writes at their prices) and the share of the billed input " +
	"read from the cache; " + noValue + " not run or not priced."

// costMetrics are the rows added to the table of a scenario with a cost.
var costMetrics = []metric{
	{"cache read tokens", costCount(func(c ledger.Cost) int { return c.CacheReadTokens })},
	{"cache write tokens", costCount(func(c ledger.Cost) int { return c.CacheWriteTokens })},
	{"billed", func(r ledger.Result) string {
		if r.Cost == nil {
			return noValue
		}
		return formatUSD(r.Cost.BilledUSD)
	}},
	{"cache hit ratio", func(r ledger.Result) string {
		if r.Cost == nil {
			return noValue
		}
		return formatShare(r.Cost.CacheHitRatio)
	}},
}

func costCount(f func(ledger.Cost) int) func(ledger.Result) string {
	return func(r ledger.Result) string {
		if r.Cost == nil {
			return noValue
		}
		return formatInt(int64(f(*r.Cost)))
	}
}

// formatUSD writes dollars with four decimals ($0.0123), or as many as
// a smaller sum needs to show its first digit.
func formatUSD(usd float64) string {
	if usd == 0 {
		return "$0"
	}
	prec := 4
	for p := 0.0001; usd < p && prec < 9; p /= 10 {
		prec++
	}
	return "$" + strconv.FormatFloat(usd, 'f', prec, 64)
}

// formatShare writes a share (0 to 1) as a whole percentage.
func formatShare(r float64) string {
	return strconv.FormatFloat(r*100, 'f', 0, 64) + "%"
}

// hasCost reports whether any result of the scenario has a cost.
func hasCost(g grouped, scenario string) bool {
	for _, s := range g.strategies {
		if r, ok := g.cell(scenario, s); ok && r.Cost != nil {
			return true
		}
	}
	return false
}

// costRows are the cost grid: a row per scenario with a cost, in the
// report's order, a column per strategy.
func (c comparison) costRows() (header []string, rows [][]string) {
	header = append([]string{"scenario"}, c.strategies...)
	for _, sc := range c.g.scenarios {
		if !hasCost(c.g, sc) {
			continue
		}
		row := []string{sc}
		for _, s := range c.strategies {
			r, ok := c.g.cell(sc, s)
			if !ok || r.Cost == nil {
				row = append(row, noValue)
				continue
			}
			row = append(row, formatUSD(r.Cost.BilledUSD)+" "+formatShare(r.Cost.CacheHitRatio))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// writeCostGrid writes, for a table, one line per scenario with a cost:
// its cheapest run that succeeded (any run, when none did) and its
// dearest run in billed dollars, each with its cache hit ratio (the
// first listed wins a tie); --details and Markdown show every
// strategy's.
func writeCostGrid(buf *bytes.Buffer, c comparison) {
	wrote := false
	for _, sc := range c.g.scenarios {
		if !hasCost(c.g, sc) {
			continue
		}
		var lo, hi *ledger.Result
		var loName, hiName string
		same := true
		for _, s := range c.strategies {
			r, ok := c.g.cell(sc, s)
			if !ok || r.Cost == nil {
				continue
			}
			switch {
			case lo == nil:
				lo, hi, loName, hiName = &r, &r, s, s
				continue
			case r.Cost.BilledUSD != lo.Cost.BilledUSD || r.Cost.CacheHitRatio != lo.Cost.CacheHitRatio:
				same = false
			}
			if cheaper(r, *lo) {
				lo, loName = &r, s
			}
			if r.Cost.BilledUSD > hi.Cost.BilledUSD {
				hi, hiName = &r, s
			}
		}
		if lo == nil {
			continue
		}
		if !wrote {
			buf.WriteString("== cost: billed dollars (share of the input read from cache; --details: all) ==\n")
			wrote = true
		}
		run := func(name string, r *ledger.Result) string {
			return name + " " + formatUSD(r.Cost.BilledUSD) + " (" + formatShare(r.Cost.CacheHitRatio) + ")"
		}
		line := sc + ": "
		if same {
			line += "every strategy " + formatUSD(lo.Cost.BilledUSD) + " (" + formatShare(lo.Cost.CacheHitRatio) + ")"
		} else {
			line += "cheapest " + run(loName, lo) + ", dearest " + run(hiName, hi)
		}
		writeWrapped(buf, texttable.Plain(line), c.width-2)
	}
	if wrote {
		buf.WriteByte('\n')
	}
}

// cheaper reports whether run a beats b on the cost line: a success
// before any other outcome, then the lower bill.
func cheaper(a, b ledger.Result) bool {
	if as, bs := a.Outcome == ledger.OutcomeSuccess, b.Outcome == ledger.OutcomeSuccess; as != bs {
		return as
	}
	return a.Cost.BilledUSD < b.Cost.BilledUSD
}
