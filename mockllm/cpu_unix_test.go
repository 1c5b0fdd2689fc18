//go:build unix

package mockllm_test

import (
	"syscall"
	"time"
)

// cpuTime is the processor time the process has used, user and system:
// on a machine shared with other work it measures what serving a body
// costs better than the wall time does.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
