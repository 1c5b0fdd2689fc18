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
// Every format people read opens with the same headline: the comparison
// first — per strategy, how many single-turn scenarios it brought to the
// best outcome the scenario allows ([BestOutcomeRule]), and the geometric
// mean of its per-scenario cost ratios against a reference strategy
// ([Options].Reference) — then the fleets' best fleet counts, then the
// budget status. Single turns and fleets are summarised apart, so that a
// fleet's thousands of attempts never decide the single turns' figures.
// Each scenario's verdict ranks its strategies by outcome first
// ([TurnRule]; a fleet by [FleetRule]); [Verdicts] gives the rankings, and
// the JSON holds them. The text table then prints a grid of scenarios ×
// strategies (outcome and attempts per cell) and, in detail, the
// scenarios where the strategies differ ([Options].Details and Scenarios
// print the cost tables). A cost table has one column per strategy and a
// row per figure: the outcome and the reason a run gave up, attempts,
// repair calls, virtual wait, the holds of a strategy's rate and adaptive
// limiters, the input tokens submitted (what the mock server counted as
// sent, failed attempts included — not what a provider bills), repair
// input tokens and their sum, the exposure; a scenario with a workload
// adds its fleet's figures (turns succeeded, makespan, turn percentiles,
// 429 and 529 answers, wasted input tokens, time queued and in flight).
// [Baseline] writes the compared figures alone, a small file to commit.
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
