// Package fakeclient is a client of the mock for tests of faultbench
// grade: a small program over loopback with a recovery policy, good or
// bad, that a test binary runs as itself (its TestMain calls Run when Env
// is set), so that every check is seen to pass and to fail against a
// real process.
package fakeclient
