// Package scenario is the scenario file format (SPEC §6): the types, and a
// loader that reads YAML with positions, rejects unknown fields and checks
// every field, naming file, line and field in its errors.
//
// The harness and the mock both read scenarios; neither owns the format.
package scenario
