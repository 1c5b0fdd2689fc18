package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// headline is what every human format opens with: the comparison first —
// who reached the best outcome how often, at what cost against the
// reference, which fleet was best — and the budget status second. One
// sentence a line, unwrapped.
func (c comparison) headline(opts Options) []string {
	var lines []string
	if c.turnCount > 0 {
		order := slices.Clone(c.strategies)
		order = slices.DeleteFunc(order, func(s string) bool { return !c.hasTurnRun[s] })
		slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(c.turns[b].best, c.turns[a].best) })
		parts := make([]string, len(order))
		for i, s := range order {
			parts[i] = fmt.Sprintf("%s %s", s, formatInt(c.turns[s].best))
		}
		lines = append(lines, fmt.Sprintf("Single turns, %d %s: the best outcome each allows was reached by %s.",
			c.turnCount, plural(c.turnCount, "scenario", "scenarios"), strings.Join(parts, ", ")))
		var costs []string
		for _, s := range order {
			t := c.turns[s]
			if s == c.ref {
				continue
			}
			over := fmt.Sprintf(" over %s%s", formatInt(int64(t.ratioAttempts.n)), failedNote(t.runs, t.successes))
			switch {
			case t.ratioAttempts.n == 0:
				costs = append(costs, fmt.Sprintf("%s none%s", s, failedNote(t.runs, t.successes)))
			case len(costs) == 0:
				costs = append(costs, fmt.Sprintf("%s makes %s the attempts and submits %s the input tokens%s", s,
					t.ratioAttempts, t.ratioTokens, over))
			default:
				costs = append(costs, fmt.Sprintf("%s %s and %s%s", s, t.ratioAttempts, t.ratioTokens, over))
			}
		}
		if len(costs) > 0 {
			ref := c.turns[c.ref]
			lines = append(lines, fmt.Sprintf("Against %s%s, over the scenarios where both succeeded (geometric means of the ratios): %s.",
				c.ref, failedNote(ref.runs, ref.successes), strings.Join(costs, "; ")))
		}
		if line := c.billedLine(order); line != "" {
			lines = append(lines, line)
		}
	}
	if c.fleetCount > 0 {
		order := slices.Clone(c.strategies)
		order = slices.DeleteFunc(order, func(s string) bool { return !c.hasFleetRun[s] })
		slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(c.fleets[b].wins, c.fleets[a].wins) })
		var wins, none []string
		for _, s := range order {
			if n := c.fleets[s].wins; n > 0 {
				wins = append(wins, fmt.Sprintf("%s in %s", s, formatInt(n)))
			} else {
				none = append(none, s)
			}
		}
		line := fmt.Sprintf("Fleets, %d %s: best fleet %s", c.fleetCount, plural(c.fleetCount, "scenario", "scenarios"),
			strings.Join(wins, ", "))
		if len(none) > 0 {
			line += "; " + strings.Join(none, ", ") + " in none"
		}
		if n := c.fleetTies(); n > 0 {
			line += fmt.Sprintf(" (%d %s, counted for each)", n, plural(n, "tie", "ties"))
		}
		lines = append(lines, line+".")
	}
	if s := budgetStatus(opts); s != "" {
		lines = append(lines, s)
	}
	return lines
}

// fleetTies counts the fleets whose first place is shared.
func (c comparison) fleetTies() int {
	n := 0
	for _, v := range c.verdicts {
		if v.fleet && len(v.Tied) > 0 {
			n++
		}
	}
	return n
}

// billedLine ranks the strategies by the dollars billed on the priced
// single-turn scenarios — the geometric mean of each scenario's bill over
// the reference's, over those where both succeeded, with the number of
// them and the strategy's failures beside it — after the best outcomes
// reached on them, as a verdict puts success first: a strategy that stops
// cheaply never ranks before one that reached the best outcome more
// often, and its cheap failures are no saving. A tie keeps order's order.
// Empty when no scenario was billed.
func (c comparison) billedLine(order []string) string {
	if c.pricedCount == 0 {
		return ""
	}
	ranked := slices.DeleteFunc(slices.Clone(order), func(s string) bool { return c.turns[s].pricedRuns == 0 })
	if len(ranked) == 0 {
		return ""
	}
	slices.SortStableFunc(ranked, func(a, b string) int {
		if ba, bb := c.turns[a].pricedBest, c.turns[b].pricedBest; ba != bb {
			return cmp.Compare(bb, ba)
		}
		return cmp.Compare(c.turns[a].ratioBilled.value(), c.turns[b].ratioBilled.value())
	})
	parts := make([]string, len(ranked))
	for i, s := range ranked {
		t := c.turns[s]
		if t.ratioBilled.n == 0 {
			parts[i] = s + " none" + failedNote(t.pricedRuns, t.pricedSuccesses)
			continue
		}
		parts[i] = fmt.Sprintf("%s %s over %s%s", s, t.ratioBilled, formatInt(int64(t.ratioBilled.n)),
			failedNote(t.pricedRuns, t.pricedSuccesses))
	}
	return fmt.Sprintf("Billed vs %s, %d priced %s, over those where both succeeded: %s.",
		c.ref, c.pricedCount, plural(c.pricedCount, "scenario", "scenarios"), strings.Join(parts, ", "))
}

// budgetStatus is the headline's last line: the budgets, then the
// baseline. Empty when neither was looked at.
func budgetStatus(opts Options) string {
	var parts []string
	switch n := len(opts.Violations); {
	case n > 0:
		parts = append(parts, fmt.Sprintf("Budgets: %d broken, listed below.", n))
	case opts.Checked:
		parts = append(parts, "Budgets: every budget holds.")
	}
	if c := opts.Baseline; c != nil {
		if n := len(c.Regressions()); n > 0 {
			parts = append(parts, fmt.Sprintf("Baseline: %d %s.", n, plural(n, "regression", "regressions")))
		} else {
			parts = append(parts, "Baseline: no regression.")
		}
	}
	return strings.Join(parts, " ")
}
