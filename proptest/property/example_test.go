package property_test

import (
	"fmt"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/proptest/property"
	"github.com/faultbench/faultbench/recovery"
)

// A property is a plain function over a scenario, a strategy and the
// result of running one on the other: nil when it holds, else an error
// naming the setting that explains it.
func ExampleNoSleepAfterFinalAttempt() {
	s := recovery.Classifying()
	r := ledger.Result{Scenario: "x", Strategy: s.Name, Outcome: ledger.OutcomeFailed, Attempts: 1,
		AttemptsLog: []ledger.Attempt{{N: 1, Purpose: "turn", Status: 503, Kind: "server"}}}
	fmt.Println(property.NoSleepAfterFinalAttempt(nil, s, r))
	r.WaitMS = 2000 // a wait after the last attempt
	fmt.Println(property.NoSleepAfterFinalAttempt(nil, s, r))
	// Output:
	// <nil>
	// waited 2000 ms in all but only 0 ms before attempts: a wait came after the last one: no setting of the strategy allows it (an engine bug)
}
