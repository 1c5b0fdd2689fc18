// Package property holds the invariants of faultbench's property suite
// (docs/properties.md) that one run can break, each written once as a
// plain function over a scenario, a strategy and the strategy's result on
// it, returning an error that names the setting of the strategy which
// explains the break (or says that none does: an engine bug). proptest
// wraps them with rapid over generated scripts; explore applies them to
// the scripts it makes. Default lists the suite every recommended preset
// keeps; All adds the properties that are opt-in by name. Faults is the
// vocabulary of scripted answers both generators draw from.
package property
