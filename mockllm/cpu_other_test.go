//go:build !unix

package mockllm_test

import "time"

// cpuTime is unknown here: the benchmarks report wall time alone.
func cpuTime() (time.Duration, bool) { return 0, false }
