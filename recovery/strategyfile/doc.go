// Package strategyfile reads and writes recovery strategies as YAML, so
// that a policy can be tuned without code (docs/strategies.md).
//
// A file holds one strategy. Every field is optional; base names a
// built-in preset to start from, and every field the file sets overrides
// the preset's:
//
//	name: claude-code-persistent
//	description: Claude Code left unattended.
//	base: claude-code
//	persistent: true
//	heartbeat: 30s
//	wait_budget: 6h
//
// Without base, a field left out takes the zero value, whose meaning
// recovery.Strategy documents ("attempts: 0 means 5"). Durations are
// written as Go durations ("500ms", "32s", "6h"), kinds by their docs/classification.md
// names, statuses as numbers or a class ("5xx"). A file with an unknown
// field, a value of the wrong type or out of range is an *Error naming the
// file, the line and the field.
//
// Marshal writes a strategy back in the same form, every field spelt out,
// so that `faultbench strategies NAME` prints a preset ready to copy and
// edit.
package strategyfile
