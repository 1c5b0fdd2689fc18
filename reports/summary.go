package reports

import (
	"math"
	"slices"
	"strconv"

	"github.com/faultbench/faultbench/ledger"
)

// The strategies the summary compares against by default: classify, or
// blind when classify did not run.
const (
	blindStrategy    = "blind"
	classifyStrategy = "classify"
)

// waitFloorMS is added to both sides of a wait ratio: a strategy that
// stops at once waits 0 s, and a ratio over nothing is no ratio.
const waitFloorMS = 1000

// reference is the strategy the summary's ratios are against: opts'
// Reference when it ran, else classify, else blind, else the first shown.
// Empty when no strategy ran.
func reference(g grouped, want string) string {
	present := map[string]bool{}
	for _, s := range g.strategies {
		present[s] = true
	}
	for _, s := range []string{want, classifyStrategy, blindStrategy} {
		if s != "" && present[s] && s != hindsightStrategy {
			return s
		}
	}
	for _, s := range g.strategies {
		if s != hindsightStrategy {
			return s
		}
	}
	return ""
}

// geomean accumulates the geometric mean of ratios.
type geomean struct {
	logs float64
	n    int
}

func (m *geomean) add(num, den float64) {
	if num > 0 && den > 0 {
		m.logs += math.Log(num / den)
		m.n++
	}
}

// String writes the mean as formatRatio does, [noValue] with no ratio.
func (m geomean) String() string {
	if m.n == 0 {
		return noValue
	}
	return formatFloatRatio(math.Exp(m.logs / float64(m.n)))
}

// value is the mean, 0 with no ratio.
func (m geomean) value() float64 {
	if m.n == 0 {
		return 0
	}
	return math.Exp(m.logs / float64(m.n))
}

// turnTotals is what one strategy did over the single-turn scenarios.
type turnTotals struct {
	runs, best, successes    int64
	attempts, waitMS, holdMS int64
	submitted                int64
	// The ratios to the reference are over the scenarios where both
	// succeeded (bothSucceeded): a cheap failure is no saving.
	ratioAttempts, ratioWait, ratioTokens geomean
	// ratioBilled, pricedBest, pricedRuns and pricedSuccesses are over the
	// priced scenarios only: the geometric mean of the bills' ratios where
	// both succeeded, the best outcomes reached, the runs and the
	// successes.
	ratioBilled                             geomean
	pricedBest, pricedRuns, pricedSuccesses int64
}

// fleetTotals is what one strategy did over the fleets.
type fleetTotals struct {
	fleets, wins, fastest      int64
	turns, succeeded, attempts int64
	s429, s529, wasted, holdMS int64
	makespanMS, worstP99MS     int64
}

// comparison is the summary of a run: single turns and fleets apart, per
// strategy, and the verdicts it was built from.
type comparison struct {
	g           grouped
	ref         string
	strategies  []string // shown, hindsight aside
	verdicts    []ScenarioVerdict
	turnCount   int // single-turn scenarios ranked
	pricedCount int // of them, those with a bill
	fleetCount  int
	width       int // the text table's widest line (Options.width)
	turns       map[string]*turnTotals
	fleets      map[string]*fleetTotals
	hasFleetRun map[string]bool
	hasTurnRun  map[string]bool
}

// compare builds the run's summary (docs/reports.md): per strategy over
// the single-turn scenarios its best outcomes, successes and costs, with
// the geometric mean of its per-scenario ratios against the reference;
// per strategy over the fleets its turns, refusals and time.
func compare(g grouped, want string) comparison {
	c := comparison{g: g, ref: reference(g, want), turns: map[string]*turnTotals{}, fleets: map[string]*fleetTotals{},
		hasFleetRun: map[string]bool{}, hasTurnRun: map[string]bool{}}
	for _, s := range g.strategies {
		if s != hindsightStrategy {
			c.strategies = append(c.strategies, s)
			c.turns[s] = &turnTotals{}
			c.fleets[s] = &fleetTotals{}
		}
	}
	c.verdicts = verdicts(g)
	for _, v := range c.verdicts {
		best := map[string]bool{}
		for _, s := range v.Best {
			best[s] = true
		}
		if v.fleet {
			c.fleetCount++
			for _, s := range v.Ranking {
				r, _ := g.cell(v.Scenario, s)
				w := workloadOf(r)
				t := c.fleets[s]
				c.hasFleetRun[s] = true
				t.fleets++
				if slices.Contains(v.first(), s) {
					t.wins++
				}
				t.turns += int64(w.Turns)
				t.succeeded += int64(w.Succeeded)
				t.attempts += int64(r.Attempts)
				t.s429 += int64(w.Status429)
				t.s529 += int64(w.Status529)
				t.wasted += int64(w.WastedInputTokens)
				t.holdMS += r.HoldMS
				t.makespanMS += w.MakespanMS
				t.worstP99MS = max(t.worstP99MS, w.P99MS)
			}
			continue
		}
		c.turnCount++
		if v.priced {
			c.pricedCount++
		}
		ref, hasRef := g.cell(v.Scenario, c.ref)
		for _, s := range v.Ranking {
			r, _ := g.cell(v.Scenario, s)
			t := c.turns[s]
			c.hasTurnRun[s] = true
			t.runs++
			if best[s] {
				t.best++
				if v.priced {
					t.pricedBest++
				}
			}
			success := r.Outcome == ledger.OutcomeSuccess
			if success {
				t.successes++
			}
			if v.priced {
				t.pricedRuns++
				if success {
					t.pricedSuccesses++
				}
			}
			t.attempts += int64(r.Attempts)
			t.waitMS += r.WaitMS
			t.holdMS += r.HoldMS
			t.submitted += int64(r.SubmittedInputTokens)
			if hasRef && bothSucceeded(r, ref) {
				t.ratioAttempts.add(float64(r.Attempts), float64(ref.Attempts))
				t.ratioTokens.add(float64(r.SubmittedInputTokens), float64(ref.SubmittedInputTokens))
				t.ratioWait.add(float64(heldMS(r)+waitFloorMS), float64(heldMS(ref)+waitFloorMS))
				if v.priced {
					t.ratioBilled.add(billedUSD(r), billedUSD(ref))
				}
			}
		}
	}
	return c
}

// bothSucceeded reports whether a run and the reference's run of the same
// scenario both succeeded: only then is a ratio of their costs one of two
// recoveries, and not of a recovery and a cheap failure.
func bothSucceeded(r, ref ledger.Result) bool {
	return r.Outcome == ledger.OutcomeSuccess && ref.Outcome == ledger.OutcomeSuccess
}

// failedNote is the count of runs that did not succeed beside a ratio,
// " (2/5 failed)"; empty when every run succeeded.
func failedNote(runs, successes int64) string {
	if runs == successes {
		return ""
	}
	return " (" + formatInt(runs-successes) + "/" + formatInt(runs) + " failed)"
}

// turnHeader and turnRows are the single-turn summary table: a row per
// strategy that ran a single turn.
func (c comparison) turnHeader() []string {
	ref := c.ref
	return []string{"strategy", "best outcome", "success", "attempts", "wait", "holds",
		"submitted input tokens", "attempts vs " + ref, "wait vs " + ref, "tokens vs " + ref}
}

func (c comparison) turnRows() [][]string {
	var rows [][]string
	for _, s := range c.strategies {
		if !c.hasTurnRun[s] {
			continue
		}
		t := c.turns[s]
		rows = append(rows, []string{
			s, formatInt(t.best) + "/" + formatInt(t.runs), formatInt(t.successes) + "/" + formatInt(t.runs),
			formatInt(t.attempts), formatWait(t.waitMS), formatWait(t.holdMS), formatInt(t.submitted),
			t.ratioAttempts.String(), t.ratioWait.String(), t.ratioTokens.String(),
		})
	}
	if hasRegret(c.g) {
		for i, row := range rows {
			rows[i] = append(row, regretCells(c.g, row[0])...)
		}
	}
	return rows
}

// fleetHeader and fleetRows are the fleet summary table: a row per
// strategy that ran a fleet.
func (c comparison) fleetHeader() []string {
	return []string{"strategy", "best fleet", "turns succeeded", "attempts per turn", "429 answers",
		"529 answers", "wasted input tokens", "holds", "makespan", "worst p99"}
}

func (c comparison) fleetRows() [][]string {
	var rows [][]string
	for _, s := range c.strategies {
		if !c.hasFleetRun[s] {
			continue
		}
		t := c.fleets[s]
		perTurn := noValue
		if t.turns > 0 {
			perTurn = strconv.FormatFloat(float64(t.attempts)/float64(t.turns), 'f', 2, 64)
		}
		rows = append(rows, []string{
			s, formatInt(t.wins) + "/" + formatInt(t.fleets), formatInt(t.succeeded) + "/" + formatInt(t.turns), perTurn,
			formatInt(t.s429), formatInt(t.s529), formatInt(t.wasted), formatWait(t.holdMS),
			formatWait(t.makespanMS), formatWait(t.worstP99MS),
		})
	}
	return rows
}

// turnNote and fleetSummaryNote explain the summary tables' columns, in
// short: docs/reports.md gives each rule in full.
func (c comparison) turnNote() string {
	return "best outcome: success where any strategy succeeded, else the cheapest stop (billed dollars when priced, " +
		"attempts, submitted input tokens, wait). vs " + c.ref + ": the geometric mean of the ratios to " + c.ref +
		"'s where both succeeded (wait with holds, +1s each side); " + noValue + " where none is defined."
}

const fleetSummaryNote = "Fleets are summed apart from single turns. best fleet: the fleets where the strategy ranks first " +
	"(" + FleetRule + "). makespan: summed."

// formatRatio writes num/den followed by "x" (see formatFloatRatio), or
// [noValue] when either is zero: no multiple of nothing, and none that is
// nothing.
func formatRatio(num, den int64) string {
	if num == 0 || den == 0 {
		return noValue
	}
	return formatFloatRatio(float64(num) / float64(den))
}

// formatFloatRatio writes r followed by "x" — "3.2x", to one decimal, or
// to two significant digits under 0.1 ("0.031x") so that a small ratio
// never reads "0.0x". (An ASCII x, not "×": see noValue.)
func formatFloatRatio(r float64) string {
	if r < 0.095 {
		return strconv.FormatFloat(r, 'g', 2, 64) + "x"
	}
	return strconv.FormatFloat(r, 'f', 1, 64) + "x"
}
