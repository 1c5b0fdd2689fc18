//go:build !linux

package harness_test

import "time"

// peakRSS is not measured off Linux.
func peakRSS() (int64, bool) { return 0, false }

// cpuTime is not measured off Linux.
func cpuTime() (time.Duration, bool) { return 0, false }
