package reports

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/ledger"
)

// Verdict is what a figure's move means.
type Verdict string

// The verdicts of a [Change].
const (
	// Regressed: a cost grew by more than the tolerance (from zero, by
	// anything), or a success became anything else.
	Regressed Verdict = "regressed"
	// Improved: a cost fell, or a turn that did not succeed now does.
	Improved Verdict = "improved"
	// WithinTolerance: a cost grew, but by no more than the tolerance.
	WithinTolerance Verdict = "within tolerance"
	// Changed: an outcome moved between two that are not success
	// (failed to truncated, say). Shown, never failed on.
	Changed Verdict = "changed"
)

// Change is one figure of one scenario × strategy that differs from the
// baseline.
type Change struct {
	Scenario string
	Strategy string
	// Metric is outcome, attempts, repair_calls, wait,
	// submitted_input_tokens or repair_input_tokens, or for a fleet one of
	// its workload figures: succeeded, makespan, p99, status_429,
	// status_529, wasted_input_tokens.
	Metric  string
	Before  string // the baseline's figure, as a person reads it
	After   string // this run's
	Delta   string // relative change, "+50.0%", "-20.0%", "from 0"; "" for outcome
	Verdict Verdict
}

// Comparison is a run set against a saved baseline run, result by result
// (matched by scenario and strategy), figure by figure.
type Comparison struct {
	// Tolerance is how much a cost may grow before it counts as a
	// regression, as a fraction: 0.1 lets 10 attempts become 11, not 12.
	Tolerance float64
	// BaselineSeed and Seed are the two runs' seeds. Jittered strategies
	// wait differently under different seeds.
	BaselineSeed, Seed uint64
	// Changes are the figures that moved, in the order of this run's
	// results and, within one, of the compared metrics.
	Changes []Change
	// Compared counts the results found in both runs.
	Compared int
	// Missing are the baseline's results this run lacks (another shard, a
	// scenario removed); Added are this run's results the baseline lacks.
	// Neither is a regression.
	Missing, Added []string
}

// Regressions are the changes that fail a build.
func (c Comparison) Regressions() []Change {
	var out []Change
	for _, ch := range c.Changes {
		if ch.Verdict == Regressed {
			out = append(out, ch)
		}
	}
	return out
}

// costs are the figures compared besides the outcome, in order: more is
// worse for each.
var costs = []struct {
	metric string
	value  func(ledger.Result) int64
	show   func(int64) string
}{
	{"attempts", func(r ledger.Result) int64 { return int64(r.Attempts) }, formatInt},
	{"repair_calls", func(r ledger.Result) int64 { return int64(r.RepairCalls) }, formatInt},
	{"wait", func(r ledger.Result) int64 { return r.WaitMS }, formatWait},
	{"submitted_input_tokens", func(r ledger.Result) int64 { return int64(r.SubmittedInputTokens) }, formatInt},
	{"repair_input_tokens", func(r ledger.Result) int64 { return int64(r.RepairInputTokens) }, formatInt},
}

// fleetCosts are a fleet's figures compared when both runs have a
// workload: more is worse for each.
var fleetCosts = []struct {
	metric string
	value  func(ledger.Workload) int64
	show   func(int64) string
}{
	{"makespan", func(w ledger.Workload) int64 { return w.MakespanMS }, formatWait},
	{"p99", func(w ledger.Workload) int64 { return w.P99MS }, formatWait},
	{"status_429", func(w ledger.Workload) int64 { return int64(w.Status429) }, formatInt},
	{"status_529", func(w ledger.Workload) int64 { return int64(w.Status529) }, formatInt},
	{"wasted_input_tokens", func(w ledger.Workload) int64 { return int64(w.WastedInputTokens) }, formatInt},
}

// Compare sets now against base. A cost that grew by more than tolerance
// (a fraction; see [ParseTolerance]) is a regression, and so is a success
// that became anything else. A fleet, a result with a workload on both
// sides, is compared on its workload figures too: fewer turns succeeded is
// a regression, and so is a makespan, p99, 429 or 529 count or wasted
// input that grew by more than tolerance. Results are matched by scenario
// and strategy; one present on only one side is listed, not compared.
func Compare(base, now ledger.Report, tolerance float64) Comparison {
	c := Comparison{Tolerance: tolerance, BaselineSeed: base.Seed, Seed: now.Seed}
	before := make(map[key]ledger.Result, len(base.Results))
	for _, r := range base.Results {
		before[key{r.Scenario, r.Strategy}] = r
	}
	seen := make(map[key]bool, len(now.Results))
	for _, r := range now.Results {
		k := key{r.Scenario, r.Strategy}
		seen[k] = true
		b, ok := before[k]
		if !ok {
			c.Added = append(c.Added, r.Strategy+" on "+r.Scenario)
			continue
		}
		c.Compared++
		if b.Outcome != r.Outcome {
			v := Changed
			switch {
			case b.Outcome == ledger.OutcomeSuccess:
				v = Regressed
			case r.Outcome == ledger.OutcomeSuccess:
				v = Improved
			}
			c.Changes = append(c.Changes, Change{Scenario: r.Scenario, Strategy: r.Strategy, Metric: "outcome",
				Before: orNoValue(string(b.Outcome)), After: orNoValue(string(r.Outcome)), Verdict: v})
		}
		cost := func(metric string, was, is int64, show func(int64) string) {
			if was == is {
				return
			}
			ch := Change{Scenario: r.Scenario, Strategy: r.Strategy, Metric: metric,
				Before: show(was), After: show(is), Delta: delta(was, is)}
			switch {
			case is < was:
				ch.Verdict = Improved
			case float64(is-was) > float64(was)*tolerance+1e-9:
				ch.Verdict = Regressed
			default:
				ch.Verdict = WithinTolerance
			}
			c.Changes = append(c.Changes, ch)
		}
		for _, m := range costs {
			cost(m.metric, m.value(b), m.value(r), m.show)
		}
		if b.Workload != nil && r.Workload != nil {
			bw, rw := *b.Workload, *r.Workload
			if bw.Succeeded != rw.Succeeded {
				v := Improved
				if rw.Succeeded < bw.Succeeded {
					v = Regressed
				}
				c.Changes = append(c.Changes, Change{Scenario: r.Scenario, Strategy: r.Strategy, Metric: "succeeded",
					Before: formatInt(int64(bw.Succeeded)), After: formatInt(int64(rw.Succeeded)),
					Delta: delta(int64(bw.Succeeded), int64(rw.Succeeded)), Verdict: v})
			}
			for _, m := range fleetCosts {
				cost(m.metric, m.value(bw), m.value(rw), m.show)
			}
		}
	}
	for _, r := range base.Results {
		if !seen[key{r.Scenario, r.Strategy}] {
			c.Missing = append(c.Missing, r.Strategy+" on "+r.Scenario)
		}
	}
	return c
}

// delta writes the relative change from was to is: "+50.0%", or "from 0".
func delta(was, is int64) string {
	if was == 0 {
		return "from 0"
	}
	pct := strconv.FormatFloat(100*float64(is-was)/float64(was), 'f', 1, 64) + "%"
	if is > was {
		pct = "+" + pct
	}
	return pct
}

// ParseTolerance reads a --max-regress value, a percentage: "10%", "2.5%"
// or a bare "10" (also percent). It returns a fraction: "10%" is 0.1.
func ParseTolerance(s string) (float64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimSuffix(t, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("tolerance %q: want a percentage of 0 or more, such as 10%%", s)
	}
	return f / 100, nil
}

// formatTolerance writes a fraction as a percentage: 0.1 is "10%".
func formatTolerance(f float64) string {
	return strconv.FormatFloat(f*100, 'f', -1, 64) + "%"
}

// changeCounts is the line above the moved rows: "compared 18 results with
// the baseline (max regress 10%): 1 regressed, 2 improved".
func changeCounts(c Comparison) string {
	n := map[Verdict]int{}
	for _, ch := range c.Changes {
		n[ch.Verdict]++
	}
	var parts []string
	for _, v := range []Verdict{Regressed, Improved, WithinTolerance, Changed} {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	verdict := "nothing moved"
	if len(parts) > 0 {
		verdict = strings.Join(parts, ", ")
	}
	s := fmt.Sprintf("Compared %d %s with the baseline (max regress %s): %s.",
		c.Compared, plural(c.Compared, "result", "results"), formatTolerance(c.Tolerance), verdict)
	if c.BaselineSeed != c.Seed {
		s += fmt.Sprintf(" The baseline ran with seed %d, this run with %d.", c.BaselineSeed, c.Seed)
	}
	if len(c.Missing) > 0 {
		s += fmt.Sprintf(" %d baseline %s not in this run.", len(c.Missing), plural(len(c.Missing), "result", "results"))
	}
	if len(c.Added) > 0 {
		s += fmt.Sprintf(" %d %s not in the baseline.", len(c.Added), plural(len(c.Added), "result", "results"))
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// changeHeader and changeRow lay out the moved rows as table cells.
var changeHeader = []string{"scenario", "strategy", "metric", "baseline", "now", "change", "verdict"}

func changeRow(ch Change) []string {
	return []string{ch.Scenario, ch.Strategy, ch.Metric, ch.Before, ch.After, orNoValue(ch.Delta), string(ch.Verdict)}
}

// writeComparison writes the counts, wrapped, and the moved rows as an
// ASCII table, if any moved.
func writeComparison(buf *bytes.Buffer, c Comparison) error {
	for _, line := range wrapText(changeCounts(c), DescriptionWidth) {
		buf.WriteString(line + "\n")
	}
	if len(c.Changes) == 0 {
		return nil
	}
	buf.WriteByte('\n')
	rows := make([][]string, len(c.Changes))
	for i, ch := range c.Changes {
		rows[i] = changeRow(ch)
	}
	return renderAligned(buf, changeHeader, rows, 3)
}
