package reports_test

import (
	"fmt"
	"os"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/reports"
)

// Compare sets a run against a baseline: more attempts than the tolerance
// allows is a regression.
func ExampleCompare() {
	result := func(attempts int) ledger.Report {
		return ledger.Report{Seed: 1, Results: []ledger.Result{{Scenario: "flaky-5xx", Strategy: "mine",
			Outcome: ledger.OutcomeSuccess, Attempts: attempts}}}
	}
	c := reports.Compare(result(4), result(6), 0.1)
	if err := reports.WriteComparison(os.Stdout, c); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Compared 1 result with the baseline (max regress 10%): 1 regressed.
	//
	// +-----------+----------+----------+----------+-----+--------+-----------+
	// | scenario  | strategy | metric   | baseline | now | change |   verdict |
	// +-----------+----------+----------+----------+-----+--------+-----------+
	// | flaky-5xx | mine     | attempts |        4 |   6 | +50.0% | regressed |
	// +-----------+----------+----------+----------+-----+--------+-----------+
}
