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
// There is no second copy of the format here: a file is decoded straight
// onto a copy of its base preset, through the yaml tags of
// recovery.Strategy and its blocks, and the value types whose words the
// format defines (durations, kinds, modes, statuses) are read by the
// functions of values.go, which the decoder and the checker share. The
// checker (check.go) walks the file against the same Go types first, so
// that every problem of a file is reported at once, with its line.
//
// Marshal encodes a strategy through the same tags, every field spelt
// out, so that `faultbench strategies NAME` prints a preset ready to copy
// and edit, and every preset reads back as itself.
package strategyfile
