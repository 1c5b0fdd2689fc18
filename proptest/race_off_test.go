//go:build !race

package proptest_test

// raceDetector is whether the tests run under -race (race_on_test.go).
const raceDetector = false
