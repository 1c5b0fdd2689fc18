// Package clock holds the clocks faultbench injects: Virtual, which a run
// advances by sleeping (so 31 s of backoff cost no wall time), and Real, which
// only the command line hands out, for `faultbench serve`, and Warped, the wall
// clock run N times fast, for `faultbench grade --speed N`. Nothing else in the
// engine, the mock or the harness reads the wall clock.
package clock
