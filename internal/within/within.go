// Package within bounds a test's waits on channels: a receive that never
// comes fails the test after a short real deadline, naming what it waited
// for, instead of blocking until go test's 10-minute timeout.
// internal/repocheck's TestNoTestWaitsWithoutABound keeps every receive in
// the repository's tests either here or in a select with a bounded case.
package within

import "time"

// Deadline is the longest real time Recv waits: far above what a
// receive that is going to come takes, even under -race on a loaded
// machine, and far below go test's timeout.
const Deadline = 30 * time.Second

// TB is what Recv needs of a test: a *testing.T, or Ginkgo's GinkgoT().
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Recv receives from ch, or fails t after Deadline with what it was
// waiting for.
func Recv[T any](t TB, ch <-chan T, what string) T {
	t.Helper()
	return recv(t, ch, what, Deadline)
}

func recv[T any](t TB, ch <-chan T, what string, deadline time.Duration) T {
	t.Helper()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("waited %v for %s: it never came", deadline, what)
	}
	var zero T
	return zero
}
