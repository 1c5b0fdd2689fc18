// Package proptest is faultbench's property suite (docs/properties.md) for your own
// strategy: each property is a function of the strategies under test that
// returns a rapid check, run over generated fault scripts, end to end — the
// engine over loopback HTTP against the mock, every run reconciled with the
// mock's journal.
//
// Gate your CI on them from your own go test:
//
//	func TestMyStrategy(t *testing.T) {
//		mine := recovery.Classifying()
//		mine.Name = "mine"
//		mine.Attempts = 8
//		proptest.Check(t, mine) // the default suite, each property a subtest
//	}
//
// or one at a time with rapid.Check(t, proptest.NoSleepAfterFinalAttempt(mine)),
// which is also how an opt-in property (LoopGuardWarnsFirst) runs. Each
// per-run property is a plain function of package proptest/property,
// which faultbench explore applies too.
// The generators are exported too (Scenario, Faults), to build properties of
// your own. RAPID_CHECKS (or -rapid.checks) sets the depth: 100 by default.
package proptest
