package grade_test

import (
	"fmt"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// Ledger reads a client's journal as a strategy's result: here a 529, a
// wait of 1.5 s, then a complete answer.
func ExampleLedger() {
	run := grade.Run{Scenario: &scenario.Scenario{Name: "overloaded"}, Entries: []mockllm.Entry{
		{N: 1, Purpose: "turn", Model: "m", InputTokens: 10, Status: 529, Kind: "overloaded"},
		{N: 2, Purpose: "turn", Model: "m", InputTokens: 10, Status: 200, Kind: "ok", GapMS: 1500, TimeMS: 1500},
	}}
	r := grade.Ledger(run)
	fmt.Println(r.Strategy, r.Outcome, r.Attempts, r.WaitMS, r.SubmittedInputTokens)
	// Output:
	// client success 2 1500 20
}
