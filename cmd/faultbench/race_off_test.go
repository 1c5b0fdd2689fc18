//go:build !race

package main

// raceDetector is whether the tests run under -race (race_on_test.go).
const raceDetector = false
