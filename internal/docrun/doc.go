// Package docrun runs the commands README.md and docs/*.md show, as
// written, with the faultbench those docs describe: each file's shell
// blocks run in order in a folder of their own, where `faultbench init`
// wrote the suite, and each command must exit as the docs say (0 unless
// the test's table of exits says otherwise). A command that needs the
// network, a client the docs do not ship, or minutes of a measurement is
// skipped by a declared list (commands_test.go) that the test prints; a
// listed skip that no longer matches a command fails the test, so the list
// cannot hide a new command. A YAML block with `run:` steps (the README's
// CI workflows) runs its steps in order, a matrix step once per value,
// against a baseline the test writes where the workflow reads one. A
// command in a line of prose (`faultbench run --hindsight`) runs too when
// it is whole: a subcommand, an argument, and no placeholder (FILE, [...],
// a|b). The `faultbench serve` samples run against a
// server the test starts on a free port: its listing must show each line
// the docs show, and the curl commands must get what they document.
//
// The package holds only this test. It runs when FAULTBENCH_DOCS=1 (.ci/run
// sets it); it builds the binary and runs the default suite several times,
// a few minutes on two cores:
//
//	FAULTBENCH_DOCS=1 go test -count=1 -v ./internal/docrun/
package docrun
