//go:build linux

package harness_test

import (
	"syscall"
	"time"
)

// peakRSS is the process's peak resident memory in bytes (Linux reports
// ru_maxrss in KiB).
func peakRSS() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Maxrss * 1024, true
}

// cpuTime is the processor time the process has used, user and system:
// on a machine shared with other work it measures what a run costs better
// than the wall time does.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
