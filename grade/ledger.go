package grade

import (
	"fmt"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// Strategy is the name of the client's column in a report: "client",
// the key of its budget in a scenario's expect block.
const Strategy = "client"

// Ledger is the client's record of one scenario, as the server saw it, in
// the shape of a strategy's: its outcome (success when its last request
// got a complete answer, truncated when that answer was cut at
// max_tokens, else failed), attempts and repair calls (by the purpose
// header), the wait (the gaps before the attempts that followed a
// failure, in real time), the input it submitted, the fallbacks (each
// change of model), and an attempt log from the journal.
//
// Its submitted input is billed as a strategy's is: each attempt at the
// input the scenario's turn declares (declared), which the strategies
// send, not the client's own prompt — a client that sends "hi" is no
// cheaper than one that sends the declared turn, and ranking it on its
// tokens would make it win every tie. A scenario without a turn bills
// what the client sent. The attempt log keeps what it sent.
func Ledger(r Run) ledger.Result {
	res := ledger.Result{Scenario: r.Scenario.Name, Strategy: Strategy, Outcome: ledger.OutcomeFailed,
		AttemptsLog: []ledger.Attempt{}, RepairLog: []ledger.Attempt{}}
	bill := declared(r.Scenario)
	var last, model string
	for _, e := range r.attempts() {
		a := ledger.Attempt{N: e.N, Purpose: e.Purpose, Model: e.Model, MaxTokens: e.MaxTokens, InputTokens: e.InputTokens,
			OutputTokens: e.OutputTokens, Status: e.Status, Kind: e.Kind, WaitBeforeMS: e.GapMS, AtMS: e.TimeMS}
		res.OutputTokens += e.OutputTokens
		if e.Purpose == "repair" {
			res.RepairCalls++
			res.RepairInputTokens += e.InputTokens
			res.RepairLog = append(res.RepairLog, a)
			continue
		}
		if res.Attempts == 0 {
			a.WaitBeforeMS = 0
		} else if last != "ok" {
			res.WaitMS += e.GapMS
		}
		if model != "" && e.Model != model {
			res.Fallbacks++
		}
		res.Attempts++
		if bill > 0 {
			res.SubmittedInputTokens += bill
		} else {
			res.SubmittedInputTokens += e.InputTokens
		}
		res.AttemptsLog = append(res.AttemptsLog, a)
		last, model = e.Kind, e.Model
	}
	if res.Attempts > 0 {
		res.Steps = 1 // a plain turn, as the harness counts it
	}
	switch last {
	case "ok":
		res.Outcome = ledger.OutcomeSuccess
	case "truncated":
		res.Outcome = ledger.OutcomeTruncated
	}
	switch {
	case r.TimedOut:
		res.Reason = "still retrying after " + seconds(r.Timeout)
	case r.Err != nil:
		res.Reason = "did not run: " + r.Err.Error()
	case res.Attempts == 0:
		res.Reason = "sent no request (" + r.ended() + ")"
	case res.Outcome != ledger.OutcomeSuccess:
		res.Reason = fmt.Sprintf("last answer %s; %s", what(res.AttemptsLog[res.Attempts-1].Status, last), r.ended())
	}
	return res
}

// declared is the input tokens a scenario's turn declares for one
// attempt: its system prompt and messages, what a strategy sends on its
// first attempt. 0 for a scenario without a turn.
func declared(sc *scenario.Scenario) int {
	if sc == nil || sc.MockOnly() {
		return 0
	}
	n := sc.Turn.SystemTokens
	for _, g := range sc.Turn.Messages {
		n += g.Count * g.Tokens
	}
	return n
}
