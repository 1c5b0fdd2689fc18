// Package explore searches generated fault scripts for the one where a
// recovery strategy does worst, shrinks it, and writes it as a scenario
// file to commit as a regression test (docs/explore.md).
//
// Generate makes script i of a seed from a math/rand/v2 source of its own,
// over the fault vocabulary of docs/scenario-format.md; Explore runs the
// strategy on each script over one mock on loopback (harness.Bench), on
// virtual time, and judges it by an Objective: a property of the default
// suite broken (Violations, the functions of package proptest/property
// that the property suite runs too), the cost against hindsight's (Hindsight) or against
// another strategy's on the same script. Costs are compared in the
// declared order of Cost. The worst case is shrunk (fewer rules, fewer
// times, shorter windows, smaller sizes) while the objective holds, and
// Write makes its file, with a description and an expect block that the
// strategy fails today. The same seed and options give the same bytes at
// any parallelism: script i depends on the seed and i alone, and ties go
// to the lower index.
//
// Hindsight is the cheapest plan of an agent that knows the script (when
// to wait, which model, compact or not, which max_tokens, or give up at
// once), found by a bounded uniform-cost search played on the same mock.
//
// The vocabulary is the faults table (faults.go) and the turn shapes
// (TurnShapes), the quota shape among them: a model with per-minute
// quotas (models.<name>.limits) a lone caller can drain.
package explore
