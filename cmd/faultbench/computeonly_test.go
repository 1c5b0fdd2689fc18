package main

import "testing"

// computeOnly marks a test that computes on one goroutine's data — a
// search, a shrink, the whole suite run again to compare its figures —
// and costs minutes under the race detector without a race to find
// there. Under -race it skips itself; the README's test line runs this
// package again without -race (`go test ./cmd/faultbench/ ./explore/ ./proptest/`),
// where it runs, so that no kill is lost (docs/development.md).
func computeOnly(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("computes only: runs without -race (go test ./cmd/faultbench/ ./explore/ ./proptest/)")
	}
}
