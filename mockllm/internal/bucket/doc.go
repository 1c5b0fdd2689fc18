// Package bucket is the token bucket behind the mock's rate limits (rpm,
// itpm, otpm): it holds its per-minute limit, starts full, refills
// continuously on the time it is told, and takes an output reservation
// back when the answer ends. It reads no clock, so it runs on a session's
// virtual time and the same times always give the same state.
package bucket
