package ledger

import (
	"fmt"
	"slices"
	"time"

	"github.com/faultbench/faultbench/recovery"
)

// Workload is what a fleet of turns cost, beside the sums every result
// has: how many turns succeeded, how long the whole took on the virtual
// clock (makespan) and each turn (percentiles by nearest rank), the
// attempts and the overloads and rate limits they met, and the input
// submitted in attempts that failed.
type Workload struct {
	Turns             int   `json:"turns"`
	Succeeded         int   `json:"succeeded"`
	Failed            int   `json:"failed"`
	MakespanMS        int64 `json:"makespan_ms"`
	P50MS             int64 `json:"p50_ms"`
	P95MS             int64 `json:"p95_ms"`
	P99MS             int64 `json:"p99_ms"`
	Attempts          int   `json:"attempts"`
	Status429         int   `json:"status_429"`
	Status529         int   `json:"status_529"`
	WastedInputTokens int   `json:"wasted_input_tokens"`
	// QueuedMS and InFlightMS split the turns' time, summed over them,
	// beside the result's HoldMS and WaitMS: queued is from when a turn
	// was due to start to when it started (waiting for a concurrency
	// slot), in flight is its requests' time from send to answer.
	QueuedMS   int64 `json:"queued_ms"`
	InFlightMS int64 `json:"in_flight_ms"`
	// BackgroundTurns and BackgroundFailed count the turns marked
	// background (workload.background) and those of them that did not
	// succeed: a strategy that sheds load fails them on purpose, so that
	// the foreground turns get the capacity. Both are left out when no
	// turn is background.
	BackgroundTurns  int `json:"background_turns,omitempty"`
	BackgroundFailed int `json:"background_failed,omitempty"`
}

// TurnResult is one turn of a workload: its result and how long it took.
type TurnResult struct {
	Result
	Latency time.Duration
	// Background is whether the turn was marked background.
	Background bool
	// Queued is how long the turn waited to start after it was due: the
	// fleet's concurrency was taken.
	Queued time.Duration
}

// Fleet sums the turns of a workload into one result: counts and tokens
// added, logs joined in turn order (each entry naming its turn), the
// outcome success when every turn succeeded and otherwise that of the
// first turn that did not, and the Workload figures. makespan is the
// virtual time from the first start to the last end.
func Fleet(scenario, strategy string, turns []TurnResult, makespan time.Duration) Result {
	res := Result{Scenario: scenario, Strategy: strategy, Outcome: OutcomeSuccess, AttemptsLog: []Attempt{}, RepairLog: []Attempt{}}
	priced := false
	w := &Workload{Turns: len(turns), MakespanMS: makespan.Milliseconds()}
	lat := make([]time.Duration, 0, len(turns))
	for i, t := range turns {
		r := t.Result
		lat = append(lat, t.Latency)
		if t.Background {
			w.BackgroundTurns++
			if r.Outcome != OutcomeSuccess {
				w.BackgroundFailed++
			}
		}
		if r.Outcome == OutcomeSuccess {
			w.Succeeded++
		} else {
			w.Failed++
			if res.Outcome == OutcomeSuccess {
				res.Outcome, res.Reason = r.Outcome, fmt.Sprintf("turn %d: %s", i+1, r.Reason)
			}
		}
		res.Attempts += r.Attempts
		res.RepairCalls += r.RepairCalls
		res.WaitMS += r.WaitMS
		res.HoldMS += r.HoldMS
		w.QueuedMS += t.Queued.Milliseconds()
		res.SubmittedInputTokens += r.SubmittedInputTokens
		res.RepairInputTokens += r.RepairInputTokens
		res.OutputTokens += r.OutputTokens
		res.Fallbacks += r.Fallbacks
		res.Compactions += r.Compactions
		res.Escalations += r.Escalations
		res.Adjustments += r.Adjustments
		res.Steps += r.Steps
		res.LoopWarnings += r.LoopWarnings
		priced = priced || r.Cost != nil
		for _, a := range r.AttemptsLog {
			a.Turn = i + 1
			res.AttemptsLog = append(res.AttemptsLog, a)
			switch {
			case a.Status == 429:
				w.Status429++
			case a.Overloaded():
				w.Status529++
			}
			if a.Failed() {
				w.WastedInputTokens += a.InputTokens
			}
			w.InFlightMS += a.DurationMS
		}
		for _, a := range r.RepairLog {
			a.Turn = i + 1
			w.InFlightMS += a.DurationMS
			res.RepairLog = append(res.RepairLog, a)
		}
	}
	if w.Failed > 1 {
		res.Reason = fmt.Sprintf("%d of %d turns did not succeed; first %s", w.Failed, w.Turns, res.Reason)
	}
	w.Attempts = res.Attempts
	slices.Sort(lat)
	w.P50MS, w.P95MS, w.P99MS = rank(lat, 50), rank(lat, 95), rank(lat, 99)
	res.Workload = w
	res.Cost = costOf(priced, res.AttemptsLog, res.RepairLog)
	return res
}

// rank is the p-th percentile of sorted by nearest rank, in milliseconds.
func rank(sorted []time.Duration, p int) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := (p*len(sorted) + 99) / 100 // ceil(p/100 × n), from 1
	return sorted[max(i, 1)-1].Milliseconds()
}

// Overloaded reports whether an attempt met an overloaded server: a 529,
// OpenAI's 503 of kind overloaded, or a stream that failed overloaded
// after its 200.
func (a Attempt) Overloaded() bool {
	return a.Status == 529 || a.Kind == string(recovery.KindOverloaded)
}

// Failed reports whether an attempt got no usable answer: a status other
// than 200, or a 200 whose body broke, did not parse or failed mid-stream.
// A complete answer and one cut at max_tokens are answers.
func (a Attempt) Failed() bool {
	return a.Status != 200 || (a.Kind != string(recovery.KindOK) && a.Kind != string(recovery.KindTruncated))
}
