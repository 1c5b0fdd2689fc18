// Package scenario is the scenario file format (docs/scenario-format.md): the types, and a
// loader that reads YAML with positions, rejects unknown fields and checks
// every field, naming file, line and field in its errors.
//
// Load reads files and folders, LoadFile one file, Parse bytes. Each
// reports every problem in a file at once — YAML syntax, unknown fields,
// values of the wrong type, failed checks — as *Error values joined with
// errors.Join and sorted by line, each printed as
// "FILE:LINE:COL: FIELD: MESSAGE":
//
//	turn.yaml:12:15: script[0].respond.stauts: unknown field "stauts"; did you mean "status"?
//
// Errors lists them; errors.As finds the first. Scenario.Validate runs the
// same checks on a scenario built in code.
//
// Budgets in expect blocks ("<= 4", "< 3s") parse with ParseBudget and
// Expect.Budgets, outcomes ("!= failed") with ParseOutcome.
//
// LoadPrices and ParsePrices read a prices file (`faultbench run
// --prices`, docs/cost.md) with the same care and positions, and
// PriceFile.Apply gives its prices to the models of a run's scenarios.
//
// The harness and the mock both read scenarios; neither owns the format.
package scenario
