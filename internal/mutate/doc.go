// Command mutate is faultbench's mutation check: it applies each mutant of
// a list (mutants.yaml beside it: a small, realistic bug as a file, an
// exact snippet of it and its replacement), runs the tests the mutant
// names against it, and fails when a mutant survives, when a snippet is no
// longer found exactly once (so that the list cannot rot as the code
// changes), or when a mutant does not compile.
//
// It works on a copy of the module in a temporary folder, never on the
// tree itself, and runs without -race; fail files of rapid are not written.
//
//	go run ./internal/mutate                    # every mutant
//	go run ./internal/mutate -only kimi         # those whose name contains "kimi"
//	go run ./internal/mutate -dir recovery      # those of recovery/'s own files
//	go run ./internal/mutate -list my.yaml -p 1
//
// docs/mutation.md says how long it takes and how to add a mutant.
package main
