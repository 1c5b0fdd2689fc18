package reports

import (
	"time"

	"github.com/faultbench/faultbench/ledger"
)

// The fleet fixture: four turns on a bucket that admits two at once, each
// answer taking 3 s, each request 4,000 input tokens. classify waits the
// retry-after of 6 s and every turn gets through, the last at 15 s; blind
// backs off 1 s and 2 s without jitter, meets a 529 on the way and gives
// up on two turns after three attempts.
const fleetScenario = "herd"

var fleetDescriptions = map[string]string{
	fleetScenario: "Four agents start together on a bucket that admits two; the refused wait what they are told.",
}

// fleetTurn is one turn of the fixture from its attempts, each answered
// 200 after 3 s in flight or refused at once.
func fleetTurn(latency time.Duration, attempts ...ledger.Attempt) ledger.TurnResult {
	r := ledger.Result{Outcome: ledger.OutcomeSuccess, Steps: 1, AttemptsLog: attempts, RepairLog: []ledger.Attempt{}}
	for i, a := range attempts {
		r.Attempts++
		r.SubmittedInputTokens += a.InputTokens
		r.OutputTokens += a.OutputTokens
		r.WaitMS += a.WaitBeforeMS
		r.AttemptsLog[i].N = i + 1
	}
	if last := attempts[len(attempts)-1]; last.Status != 200 {
		r.Outcome, r.Reason = ledger.OutcomeFailed, "rate_limit: attempts exhausted"
	}
	return ledger.TurnResult{Result: r, Latency: latency}
}

// answered and refused are a fixture attempt that came back at atMS after
// waiting waitMS.
func answered(waitMS, atMS int64) ledger.Attempt {
	return ledger.Attempt{Purpose: "turn", Model: "primary", MaxTokens: 1024, InputTokens: 4_000, OutputTokens: 200,
		Status: 200, Kind: "ok", WaitBeforeMS: waitMS, AtMS: atMS, DurationMS: 3_000}
}

func refused(status int, waitMS, atMS int64) ledger.Attempt {
	kind := "rate_limit"
	if status == 529 {
		kind = "overloaded"
	}
	return ledger.Attempt{Purpose: "turn", Model: "primary", MaxTokens: 1024, InputTokens: 4_000,
		Status: status, Kind: kind, WaitBeforeMS: waitMS, AtMS: atMS}
}

func fleetReport() ledger.Report {
	s := time.Second
	return ledger.Report{Seed: 7, Results: []ledger.Result{
		ledger.Fleet(fleetScenario, "blind", []ledger.TurnResult{
			fleetTurn(3*s, answered(0, 3_000)),
			fleetTurn(3*s, answered(0, 3_000)),
			fleetTurn(3*s, refused(429, 0, 0), refused(429, 1_000, 1_000), refused(429, 2_000, 3_000)),
			fleetTurn(3*s, refused(429, 0, 0), refused(529, 1_000, 1_000), refused(429, 2_000, 3_000)),
		}, 3*s),
		ledger.Fleet(fleetScenario, "classify", []ledger.TurnResult{
			fleetTurn(3*s, answered(0, 3_000)),
			fleetTurn(3*s, answered(0, 3_000)),
			fleetTurn(9*s, refused(429, 0, 0), answered(6_000, 9_000)),
			fleetTurn(15*s, refused(429, 0, 0), refused(429, 6_000, 6_000), answered(6_000, 15_000)),
		}, 15*s),
	}}
}

// fleetOptions expect classify to succeed and blind to fail, and break a
// makespan budget of blind's.
func fleetOptions() Options {
	return Options{Descriptions: fleetDescriptions, Checked: true,
		Expectations: []Expectation{
			{Scenario: fleetScenario, Strategy: "blind", Outcome: "failed", Met: true},
			{Scenario: fleetScenario, Strategy: "classify", Outcome: "success", Met: true},
		},
		Violations: []Violation{{Scenario: fleetScenario, Strategy: "blind", Field: "wasted_input_tokens", Budget: "<= 10000", Got: "24000"}},
	}
}
