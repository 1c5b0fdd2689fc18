// Package reports renders a run's ledger for people and for machines, and
// judges it against a saved run.
//
// A [ledger.Report] goes in; out come the cost tables a user reads in a
// terminal or a CI log ([Table]), the JSON object that is faultbench's
// stable machine contract ([JSON], docs/reports.md), and the reports CI systems
// show: [Markdown] for a pull-request comment, [CSV], [JUnit] XML with a
// failure per broken budget, and one self-contained [HTML] page with a
// timeline of every strategy's attempts. [Write] picks one by name, so the
// command line maps --format onto it; [Formats] lists the names this build
// knows. [Options] carries what the formats show besides the ledger: the
// scenarios' descriptions, the budgets the run broke ([Violation]) and its
// comparison with a baseline ([Compare]).
//
// The table, every line of it within 120 columns, starts with the summary:
// per strategy its totals, how many runs met the outcome their scenario's
// expect block names ("as expected", [Expectation]) and, when both "blind"
// and "classify" ran, the ratio blind/classify of each cost. Then, for each
// scenario in order of first appearance, a title, the scenario's
// description and one column per strategy with what the run cost: the
// outcome and the reason a run gave up, attempts, repair calls, virtual
// wait, the input tokens submitted (what the mock server counted as sent,
// failed attempts included — not what a provider bills), repair input
// tokens and their sum, the exposure; rows zero for every strategy are left
// out ([Options].AllRows keeps them), and a verdict line names the cheapest
// strategy that met its expected outcome ([CheapestOrder]). A scenario with
// a workload adds its fleet's figures (turns succeeded, makespan, turn
// percentiles, 429 and 529 answers, wasted input tokens), and its verdict
// line names the best fleet ([FleetOrder]).
//
// Text from scenario and strategy files is escaped for each format: made
// visible for a terminal, escaped as Markdown and HTML, guarded against
// spreadsheet formulas in CSV.
//
// A sharded run (faultbench run --shard K/N) writes its slice with
// [ShardJSON]; [ReadJSON] reads any report back and [Merge] joins the
// slices into the report the unsharded run writes, byte for byte.
//
// Rendering is pure: the same report and options give the same bytes, so
// the output can be compared with a golden file or a saved baseline. Nothing
// here reads the clock, the environment or the terminal.
package reports
