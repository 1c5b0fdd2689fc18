//go:build race

package harness_test

// raceDetector is whether the tests run under -race, which slows a run
// about tenfold (see suite).
const raceDetector = true
