package reports

import "github.com/faultbench/faultbench/ledger"

// The fixture: two scenarios, each run by blind and classify, with the
// figures the presets would produce (docs/strategies.md, docs/scenario-format.md).
//
// overloaded-then-backup: the primary answers 529 for 30 s; the backup
// answers 429 retry-after 2 once, then succeeds. Input is 104,000 tokens.
// blind sleeps 1+2+4+8+16 s, the last after its fifth attempt, all inside
// the overload window. classify backs off 1 s and 2 s, switches to the backup
// after the third 529 without waiting, honors retry-after 2 s.
//
// prompt-too-long: 210,000 input tokens against a 200,000 window. blind
// resends the same request five times. classify compacts once (a repair
// call summarising 180,000 tokens into 1,200) and resends 31,200 tokens.
const (
	overloadScenario = "overloaded-then-backup"
	overflowScenario = "prompt-too-long"
)

var fixtureDescriptions = map[string]string{
	overloadScenario: "The primary model stays overloaded for 30 s; the backup answers after one 429 " +
		"with retry-after 2. A blind loop never leaves the primary and sleeps after its last " +
		"attempt; classify backs off, switches to the backup after three 529s and honors retry-after.",
	overflowScenario: "The prompt alone is over the window: no wait and no model switch can help. " +
		"Only compaction does.",
}

func turn(n int, model string, maxTokens, input, output, status int, kind string, waitMS, atMS int64) ledger.Attempt {
	return ledger.Attempt{N: n, Purpose: "turn", Model: model, MaxTokens: maxTokens, InputTokens: input,
		OutputTokens: output, Status: status, Kind: kind, WaitBeforeMS: waitMS, AtMS: atMS}
}

// blindTurns are blind's five failed attempts of input tokens each, every
// one answered status (kind), with its doubling backoff from 1 s.
func blindTurns(input, status int, kind string) []ledger.Attempt {
	var out []ledger.Attempt
	var wait, at int64
	for n := 1; n <= 5; n++ {
		out = append(out, turn(n, "primary", 4096, input, 0, status, kind, wait, at))
		wait = max(2*wait, 1_000)
		at += wait
	}
	return out
}

func fixtureReport() ledger.Report {
	return ledger.Report{Seed: 42, Results: []ledger.Result{
		{
			Scenario: overloadScenario, Strategy: "blind",
			Outcome: ledger.OutcomeFailed, Reason: "overloaded_error after 5 attempts",
			Attempts: 5, WaitMS: 31_000, SubmittedInputTokens: 520_000, Steps: 1,
			AttemptsLog: blindTurns(104_000, 529, "overloaded"),
		},
		{
			Scenario: overloadScenario, Strategy: "classify",
			Outcome:  ledger.OutcomeSuccess,
			Attempts: 5, WaitMS: 5_000, SubmittedInputTokens: 520_000, OutputTokens: 900,
			Fallbacks: 1, Steps: 1,
			AttemptsLog: []ledger.Attempt{
				turn(1, "primary", 4096, 104_000, 0, 529, "overloaded", 0, 0),
				turn(2, "primary", 4096, 104_000, 0, 529, "overloaded", 1_000, 1_000),
				turn(3, "primary", 4096, 104_000, 0, 529, "overloaded", 2_000, 3_000),
				turn(4, "backup", 4096, 104_000, 0, 429, "rate_limit", 0, 3_000),
				turn(5, "backup", 4096, 104_000, 900, 200, "", 2_000, 5_000),
			},
		},
		{
			Scenario: overflowScenario, Strategy: "blind",
			Outcome: ledger.OutcomeFailed, Reason: "prompt is too long: 210000 tokens > 200000 maximum",
			Attempts: 5, WaitMS: 31_000, SubmittedInputTokens: 1_050_000, Steps: 1,
			AttemptsLog: blindTurns(210_000, 400, "context_overflow"),
			// RepairLog left nil on purpose: it must still render as [].
		},
		{
			Scenario: overflowScenario, Strategy: "classify",
			Outcome:  ledger.OutcomeSuccess,
			Attempts: 2, RepairCalls: 1, SubmittedInputTokens: 241_200, RepairInputTokens: 180_000,
			OutputTokens: 2_100, Compactions: 1, Steps: 1,
			AttemptsLog: []ledger.Attempt{
				turn(1, "primary", 4096, 210_000, 0, 400, "context_overflow", 0, 0),
				turn(2, "primary", 4096, 31_200, 900, 200, "", 0, 0),
			},
			RepairLog: []ledger.Attempt{
				{N: 1, Purpose: "repair", Model: "primary", MaxTokens: 4096, InputTokens: 180_000,
					OutputTokens: 1_200, Status: 200},
			},
		},
	}}
}

// fixtureViolations are budgets the fixture breaks: classify was allowed
// four attempts on the overload and took five; blind was expected to fail
// the overflow quickly.
func fixtureViolations() []Violation {
	return []Violation{
		{Scenario: overloadScenario, Strategy: "classify", Field: "attempts", Budget: "<= 4", Got: "5"},
		{Scenario: overflowScenario, Strategy: "blind", Field: "wait", Budget: "< 3s", Got: "31s"},
	}
}

// fixtureBaseline is the fixture as a saved run in which classify did
// better on the overload (4 attempts, 3 s) and worse on the overflow
// (failed), and blind had one scenario more.
func fixtureBaseline() ledger.Report {
	base := fixtureReport()
	base.Results[1].Attempts = 4
	base.Results[1].WaitMS = 3_000
	base.Results[3].Outcome = ledger.OutcomeFailed
	base.Results[3].SubmittedInputTokens = 300_000
	base.Results = append(base.Results, ledger.Result{Scenario: "retired", Strategy: "blind", Outcome: ledger.OutcomeFailed})
	return base
}

// verdictOptions are the options with broken budgets and a baseline.
func verdictOptions() Options {
	cmp := Compare(fixtureBaseline(), fixtureReport(), 0.1)
	return Options{Descriptions: fixtureDescriptions, Violations: fixtureViolations(), Checked: true, Baseline: &cmp,
		Expectations: fixtureExpectations()}
}

// fixtureExpectations are the outcomes the fixture's scenarios expect: blind
// fails both as expected, classify succeeds on the overload as expected; of
// classify on the overflow nothing is expected.
func fixtureExpectations() []Expectation {
	return []Expectation{
		{Scenario: overloadScenario, Strategy: "blind", Outcome: "failed", Met: true},
		{Scenario: overloadScenario, Strategy: "classify", Outcome: "success", Met: true},
		{Scenario: overflowScenario, Strategy: "blind", Outcome: "failed", Met: true},
	}
}
