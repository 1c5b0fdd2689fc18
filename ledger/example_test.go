package ledger_test

import (
	"errors"
	"fmt"

	"github.com/faultbench/faultbench/ledger"
)

// Reconcile holds the engine's record to the server's journal, attempt for
// attempt: a request the engine did not count is a mismatch.
func ExampleReconcile() {
	res := ledger.Result{Scenario: "flaky", Strategy: "mine", Attempts: 1, SubmittedInputTokens: 10,
		AttemptsLog: []ledger.Attempt{{N: 1, Purpose: "turn", Model: "m", MaxTokens: 100, InputTokens: 10, Status: 200}}}
	journal := []ledger.Served{{N: 1, Purpose: "turn", Model: "m", MaxTokens: 100, InputTokens: 10, Status: 200}}
	fmt.Println(ledger.Reconcile(res, journal))
	journal = append(journal, ledger.Served{N: 2, Purpose: "turn", Model: "m", MaxTokens: 100, InputTokens: 10, Status: 200})
	err := ledger.Reconcile(res, journal)
	fmt.Println(errors.Is(err, ledger.ErrMismatch))
	// Output:
	// <nil>
	// true
}
