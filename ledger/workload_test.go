package ledger

import (
	"testing"
	"time"
)

func TestFleetSumsTurnsAndRanksLatencies(t *testing.T) {
	turn := func(outcome Outcome, lat time.Duration, statuses ...int) TurnResult {
		r := Result{Outcome: outcome, Attempts: len(statuses), Reason: "r"}
		for _, st := range statuses {
			kind := "ok"
			if st != 200 {
				kind = "rate_limit"
			}
			r.AttemptsLog = append(r.AttemptsLog, Attempt{Status: st, Kind: kind, InputTokens: 100})
			r.SubmittedInputTokens += 100
		}
		return TurnResult{Result: r, Latency: lat}
	}
	turns := []TurnResult{turn(OutcomeSuccess, 3*time.Second, 200), turn(OutcomeFailed, 9*time.Second, 429, 529, 429)}
	for i := range 8 {
		turns = append(turns, turn(OutcomeSuccess, time.Duration(i+1)*time.Second, 200))
	}
	r := Fleet("sc", "st", turns, 12*time.Second)
	w := r.Workload
	if r.Outcome != OutcomeFailed || r.Reason != "turn 2: r" || r.Attempts != 12 || r.SubmittedInputTokens != 1200 {
		t.Fatalf("sums: %+v", r)
	}
	if w.Succeeded != 9 || w.Failed != 1 || w.Status429 != 2 || w.Status529 != 1 || w.WastedInputTokens != 300 || w.MakespanMS != 12000 {
		t.Fatalf("workload: %+v", *w)
	}
	// Latencies 1..8, 3, 9 s sorted: 1 2 3 3 4 5 6 7 8 9.
	if w.P50MS != 4000 || w.P95MS != 9000 || w.P99MS != 9000 {
		t.Fatalf("percentiles: %+v", *w)
	}
	if r.AttemptsLog[1].Turn != 2 {
		t.Fatalf("log entries name their turn: %+v", r.AttemptsLog[1])
	}
}

func TestFleetCountsBackgroundTurnsAndOpenAIOverloads(t *testing.T) {
	turns := []TurnResult{
		{Result: Result{Outcome: OutcomeSuccess, AttemptsLog: []Attempt{{Status: 200, Kind: "ok"}}}},
		{Result: Result{Outcome: OutcomeFailed, AttemptsLog: []Attempt{{Status: 503, Kind: "overloaded"}}}, Background: true},
		{Result: Result{Outcome: OutcomeSuccess, AttemptsLog: []Attempt{{Status: 503, Kind: "server_error"}, {Status: 200, Kind: "ok"}}}, Background: true},
	}
	w := Fleet("sc", "st", turns, time.Second).Workload
	if w.BackgroundTurns != 2 || w.BackgroundFailed != 1 {
		t.Fatalf("background: %+v", *w)
	}
	// An OpenAI overload is a 503 of kind overloaded; a plain 503 is not one.
	if w.Status529 != 1 {
		t.Fatalf("overloads: %+v", *w)
	}
}

func TestFleetCountsAStreamThatFailedAfterItsStatusAsWasted(t *testing.T) {
	turns := []TurnResult{{Result: Result{Outcome: OutcomeSuccess, AttemptsLog: []Attempt{
		{Status: 200, Kind: "overloaded", InputTokens: 100}, // overloaded mid-stream
		{Status: 200, Kind: "truncated", InputTokens: 10},   // an answer, cut
		{Status: 200, Kind: "ok", InputTokens: 1},
	}}}}
	w := Fleet("sc", "st", turns, time.Second).Workload
	if w.WastedInputTokens != 100 || w.Status529 != 1 {
		t.Fatalf("a stream that failed after its 200: %+v", *w)
	}
}

// A fleet's time splits into queued, held, waiting and in flight, each
// summed over its turns.
func TestFleetSplitsTurnTime(t *testing.T) {
	turns := []TurnResult{
		{Result: Result{Outcome: OutcomeSuccess, HoldMS: 300, WaitMS: 1000,
			AttemptsLog: []Attempt{{Status: 429, Kind: "rate_limit", DurationMS: 50}, {Status: 200, Kind: "ok", DurationMS: 2000}},
			RepairLog:   []Attempt{{Status: 200, Kind: "ok", DurationMS: 400}}}},
		{Result: Result{Outcome: OutcomeSuccess, HoldMS: 700, AttemptsLog: []Attempt{{Status: 200, Kind: "ok", DurationMS: 1000}}},
			Queued: 5 * time.Second},
	}
	r := Fleet("sc", "st", turns, 9*time.Second)
	if w := r.Workload; r.HoldMS != 1000 || r.WaitMS != 1000 || w.QueuedMS != 5000 || w.InFlightMS != 3450 {
		t.Fatalf("hold %d, wait %d, workload %+v", r.HoldMS, r.WaitMS, *w)
	}
}
