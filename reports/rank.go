package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/faultbench/faultbench/ledger"
)

// hindsightStrategy is the strategy name of hindsight's rows (`run
// --hindsight`; explore.HindsightName): the cheapest plan of an agent that
// knew the script, not a strategy anyone runs, so no verdict ranks it and
// no summary counts it.
const hindsightStrategy = "hindsight"

// TurnRule is the order in which a scenario of single turns ranks its
// strategies. A strategy that failed, was truncated or aborted never ranks
// before one that succeeded.
const TurnRule = "success before any other outcome, then fewest attempts, then fewest submitted input tokens, " +
	"then least wait (retry waits and holds); strategies that tie share the first place"

// FleetRule is the order in which a scenario with a workload ranks its
// strategies: the work done, then its cost to the provider.
const FleetRule = "most turns succeeded, then fewest attempts, then fewest wasted input tokens; " +
	"strategies that tie share the first place"

// PricedTurnRule is TurnRule for a scenario with prices (docs/cost.md):
// the dollars billed decide before the attempts. Success still comes
// first: a cheap failure never ranks before a success.
const PricedTurnRule = "success before any other outcome, then least billed dollars, then fewest attempts, " +
	"then fewest submitted input tokens, then least wait (retry waits and holds); strategies that tie share the first place"

// PricedFleetRule is FleetRule for a fleet with prices: the dollars
// billed decide after the turns succeeded.
const PricedFleetRule = "most turns succeeded, then least billed dollars, then fewest attempts, " +
	"then fewest wasted input tokens; strategies that tie share the first place"

// BestOutcomeRule says which runs of a scenario reach the best outcome the
// scenario allows.
const BestOutcomeRule = "success when any strategy of the run succeeded on the scenario; else the cheapest stop, " +
	"the runs that tie the verdict's winner on billed dollars (when priced), attempts, submitted input tokens and wait"

// ScenarioVerdict is one scenario's ranking of the strategies that ran it
// (hindsight's row left out), as the JSON's "verdicts" list holds it.
type ScenarioVerdict struct {
	Scenario string `json:"scenario"`
	// Winner ranks first by Rule: of the strategies that tie for first
	// place, the one listed first.
	Winner string `json:"winner"`
	// Tied are the strategies that tie the winner exactly by Rule, in the
	// order of Ranking: they share the first place, and every count and
	// mark that names the winner names them too, so that the order of
	// --strategies decides nothing. Left out when none does.
	Tied []string `json:"tied,omitempty"`
	// Fastest, for a fleet, is the strategy with the shortest makespan
	// among those with the winner's turns succeeded, when it is not the
	// winner; left out otherwise.
	Fastest string `json:"fastest,omitempty"`
	// Ranking is every strategy, best first.
	Ranking []string `json:"ranking"`
	// Best are the strategies that reached the best outcome the scenario
	// allows (BestOutcomeRule); for a fleet, those with the most turns
	// succeeded. In the order of Ranking.
	Best []string `json:"best_outcome"`
	// Rule is the order applied, as written: TurnRule or FleetRule, or
	// PricedTurnRule or PricedFleetRule when a run of the scenario was
	// billed.
	Rule string `json:"rule"`

	fleet, priced bool
}

// heldMS is a run's time held back: its retries' waits and its policies'
// holds.
func heldMS(r ledger.Result) int64 { return r.WaitMS + r.HoldMS }

// billedUSD is a result's bill, 0 without a cost.
func billedUSD(r ledger.Result) float64 {
	if r.Cost == nil {
		return 0
	}
	return r.Cost.BilledUSD
}

// turnCompare orders a and b by [PricedTurnRule], which is [TurnRule]
// where nothing was billed: -1 when a ranks first, 0 when they tie.
func turnCompare(a, b ledger.Result) int {
	sa, sb := a.Outcome == ledger.OutcomeSuccess, b.Outcome == ledger.OutcomeSuccess
	switch {
	case sa != sb:
		if sa {
			return -1
		}
		return 1
	case billedUSD(a) != billedUSD(b):
		return cmp.Compare(billedUSD(a), billedUSD(b))
	case a.Attempts != b.Attempts:
		return cmp.Compare(int64(a.Attempts), int64(b.Attempts))
	case a.SubmittedInputTokens != b.SubmittedInputTokens:
		return cmp.Compare(int64(a.SubmittedInputTokens), int64(b.SubmittedInputTokens))
	default:
		return cmp.Compare(heldMS(a), heldMS(b))
	}
}

// fleetCompare orders two fleets by [PricedFleetRule], which is
// [FleetRule] where nothing was billed.
func fleetCompare(a, b ledger.Result) int {
	wa, wb := workloadOf(a), workloadOf(b)
	switch {
	case wa.Succeeded != wb.Succeeded:
		return cmp.Compare(int64(wb.Succeeded), int64(wa.Succeeded))
	case billedUSD(a) != billedUSD(b):
		return cmp.Compare(billedUSD(a), billedUSD(b))
	case a.Attempts != b.Attempts:
		return cmp.Compare(int64(a.Attempts), int64(b.Attempts))
	default:
		return cmp.Compare(int64(wa.WastedInputTokens), int64(wb.WastedInputTokens))
	}
}

// billed reports whether any run of the scenario was billed: its
// verdict ranks by the priced rule.
func billed(g grouped, scenario string) bool {
	for _, s := range g.strategies {
		if r, ok := g.cell(scenario, s); ok && s != hindsightStrategy && billedUSD(r) > 0 {
			return true
		}
	}
	return false
}

// workloadOf is a result's workload, zero for a lone turn.
func workloadOf(r ledger.Result) ledger.Workload {
	if r.Workload == nil {
		return ledger.Workload{}
	}
	return *r.Workload
}

// ranked are a scenario's strategies that ran it, hindsight left out, in
// the order shown.
func ranked(g grouped, scenario string) []string {
	var out []string
	for _, s := range g.strategies {
		if _, ok := g.cell(scenario, s); ok && s != hindsightStrategy {
			out = append(out, s)
		}
	}
	return out
}

// verdictOf ranks one scenario. ok is false when no strategy ran it
// (hindsight aside).
func verdictOf(g grouped, scenario string) (ScenarioVerdict, bool) {
	names := ranked(g, scenario)
	if len(names) == 0 {
		return ScenarioVerdict{}, false
	}
	fleet, priced := hasWorkload(g, scenario), billed(g, scenario)
	compare, rule := turnCompare, TurnRule
	switch {
	case fleet && priced:
		compare, rule = fleetCompare, PricedFleetRule
	case fleet:
		compare, rule = fleetCompare, FleetRule
	case priced:
		rule = PricedTurnRule
	}
	cell := func(s string) ledger.Result { r, _ := g.cell(scenario, s); return r }
	slices.SortStableFunc(names, func(a, b string) int { return compare(cell(a), cell(b)) })
	v := ScenarioVerdict{Scenario: scenario, Winner: names[0], Ranking: names, Rule: rule, fleet: fleet, priced: priced}
	win := cell(names[0])
	for _, s := range names[1:] {
		if compare(cell(s), win) != 0 {
			break
		}
		v.Tied = append(v.Tied, s)
	}
	for _, s := range names {
		r := cell(s)
		switch {
		case fleet:
			if workloadOf(r).Succeeded == workloadOf(win).Succeeded {
				v.Best = append(v.Best, s)
			}
		case win.Outcome == ledger.OutcomeSuccess:
			if r.Outcome == ledger.OutcomeSuccess {
				v.Best = append(v.Best, s)
			}
		case turnCompare(r, win) == 0: // nobody succeeded: the cheapest stop
			v.Best = append(v.Best, s)
		}
	}
	if fleet {
		fastest := names[0]
		for _, s := range v.Best {
			if workloadOf(cell(s)).MakespanMS < workloadOf(cell(fastest)).MakespanMS {
				fastest = s
			}
		}
		if fastest != names[0] {
			v.Fastest = fastest
		}
	}
	return v, true
}

// first are the strategies that share the first place: the winner and
// those tied with it.
func (v ScenarioVerdict) first() []string { return append([]string{v.Winner}, v.Tied...) }

// firstName names the first place: the winner, or the strategies tied for
// it ("classify, blind (tied)").
func (v ScenarioVerdict) firstName() string {
	if len(v.Tied) == 0 {
		return v.Winner
	}
	return strings.Join(v.first(), ", ") + " (tied)"
}

// verdicts ranks every scenario of g, in order.
func verdicts(g grouped) []ScenarioVerdict {
	var out []ScenarioVerdict
	for _, sc := range g.scenarios {
		if v, ok := verdictOf(g, sc); ok {
			out = append(out, v)
		}
	}
	return out
}

// Verdicts ranks the strategies of every scenario of rep, scenarios in
// order of first appearance, strategies that tie in order of appearance
// and named in Tied: what the JSON's "verdicts" list holds. Two results for the same
// scenario and strategy are an error.
func Verdicts(rep ledger.Report) ([]ScenarioVerdict, error) {
	g, err := group(rep.Results, nil)
	if err != nil {
		return nil, err
	}
	return verdicts(g), nil
}

// verdictLine is the line under a scenario's table: the winner, then
// what the others did, grouped by outcome in the order of the ranking
// ("verdict: classify: success in 3 attempts; success: kimi-code in 4;
// failed: blind after 5"), with a priced scenario's the winner's bill
// ("success in 8 attempts, billed $0.2181"). The winner's input tokens
// and wait are named when they decided: the next strategy had its
// outcome, bill and attempts.
func verdictLine(g grouped, v ScenarioVerdict) string {
	cell := func(s string) ledger.Result { r, _ := g.cell(v.Scenario, s); return r }
	if v.fleet {
		return fleetVerdictLine(cell, v)
	}
	win := cell(v.Winner)
	var b strings.Builder
	b.WriteString("verdict: ")
	if win.Outcome != ledger.OutcomeSuccess {
		b.WriteString("no strategy succeeded; the cheapest stop: ")
	}
	fmt.Fprintf(&b, "%s: %s %s %s %s", v.firstName(), orNoValue(string(win.Outcome)), inOrAfter(win),
		formatInt(int64(win.Attempts)), plural(win.Attempts, "attempt", "attempts"))
	if v.priced {
		fmt.Fprintf(&b, ", billed %s", formatUSD(billedUSD(win)))
	}
	rest := v.Ranking[len(v.first()):]
	if len(rest) > 0 {
		if next := cell(rest[0]); next.Outcome == win.Outcome && billedUSD(next) == billedUSD(win) && next.Attempts == win.Attempts {
			fmt.Fprintf(&b, " (%s input tokens, %s wait)", formatInt(int64(win.SubmittedInputTokens)), formatWait(heldMS(win)))
		}
	}
	b.WriteString(othersByOutcome(cell, rest))
	return b.String()
}

// inOrAfter is how a turn's attempts read: a success "in" them, any other
// outcome "after" them.
func inOrAfter(r ledger.Result) string {
	if r.Outcome == ledger.OutcomeSuccess {
		return "in"
	}
	return "after"
}

// othersByOutcome says what the strategies of rest did, grouped by outcome
// in the order of their first appearance in rest, each group's names with
// the same attempts joined: "; success: kimi-code in 4, s11, sdk-openai in
// 6; failed: blind after 5".
func othersByOutcome(cell func(string) ledger.Result, rest []string) string {
	var outcomes []ledger.Outcome
	byOutcome := map[ledger.Outcome][]string{}
	for _, s := range rest {
		o := cell(s).Outcome
		if _, seen := byOutcome[o]; !seen {
			outcomes = append(outcomes, o)
		}
		byOutcome[o] = append(byOutcome[o], s)
	}
	var b strings.Builder
	for _, o := range outcomes {
		fmt.Fprintf(&b, "; %s: ", orNoValue(string(o)))
		names := byOutcome[o]
		for i := 0; i < len(names); {
			j := i
			n, why := cell(names[i]).Attempts, policyStop(cell(names[i]).Reason)
			for j < len(names) && cell(names[j]).Attempts == n && policyStop(cell(names[j]).Reason) == why {
				j++
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %s %s", strings.Join(names[i:j], ", "), inOrAfter(cell(names[i])), formatInt(int64(n)))
			if why != "" {
				b.WriteString(" (" + why + ")")
			}
			i = j
		}
	}
	return b.String()
}

// policyStop names, in short, a stop that a strategy's own rule chose
// while the error would have allowed another attempt — a server-asked
// wait above its cap, x-should-retry: false honoured, a spent retry
// budget, an open circuit breaker — so that the first screen says why a
// strategy failed where another succeeded; "" for any other reason (the
// attempts exhausted, an error no wait can fix), which the attempts and
// the scenario already tell.
func policyStop(reason string) string {
	switch {
	case strings.Contains(reason, "server asked to wait ") && strings.Contains(reason, " cap"):
		return "wait above its cap"
	case strings.Contains(reason, "x-should-retry: false"):
		return "x-should-retry: false"
	case strings.Contains(reason, "retry budget spent"):
		return "retry budget spent"
	case strings.Contains(reason, "circuit breaker open"):
		return "circuit breaker open"
	}
	return ""
}

// fleetVerdictLine is a fleet's verdict line: the best fleet with its
// figures, the fastest when it is another strategy, then the others' turns
// succeeded in ranking order.
func fleetVerdictLine(cell func(string) ledger.Result, v ScenarioVerdict) string {
	turns := func(s string) string {
		w := workloadOf(cell(s))
		return formatInt(int64(w.Succeeded)) + "/" + formatInt(int64(w.Turns))
	}
	win, ww := cell(v.Winner), workloadOf(cell(v.Winner))
	var b strings.Builder
	fmt.Fprintf(&b, "verdict: best fleet %s: %s turns succeeded in %s %s, %s wasted input tokens, makespan %s",
		v.firstName(), turns(v.Winner), formatInt(int64(win.Attempts)), plural(win.Attempts, "attempt", "attempts"),
		formatInt(int64(ww.WastedInputTokens)), formatWait(ww.MakespanMS))
	if v.priced {
		fmt.Fprintf(&b, ", billed %s", formatUSD(billedUSD(win)))
	}
	if v.Fastest != "" {
		f := cell(v.Fastest)
		fmt.Fprintf(&b, "; fastest: %s (%s in %s attempts, makespan %s)", v.Fastest, turns(v.Fastest),
			formatInt(int64(f.Attempts)), formatWait(workloadOf(f).MakespanMS))
	}
	var others []string
	for _, s := range v.Ranking[len(v.first()):] {
		if s != v.Fastest {
			others = append(others, s+" "+turns(s))
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, "; then %s", strings.Join(others, ", "))
	}
	return b.String()
}
