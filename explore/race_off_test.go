//go:build !race

package explore

// raceDetector is whether the tests run under -race (race_on_test.go).
const raceDetector = false
