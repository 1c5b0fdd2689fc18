// Package grade judges any client's recovery from the mock's journal: the
// checks of `faultbench grade -- CMD` (docs/grade.md).
//
// A pack is a folder of scenarios (the built-in one is embedded: Pack,
// WritePack), each naming in its grade list the checks it exercises.
// Observe runs a command once per scenario, in real time, against a mock
// server on loopback, each process in a session of its own named by its
// base URL (http://ADDR/<scenario>/s/<session>/), bounded by a timeout
// after which its process group is killed; the session's clock starts at
// the client's first request, as under serve. A Run is what one scenario
// saw: the session's journal, the exit code, whether the timeout struck,
// the client's start-up time and the host's noise while it ran (noise.go).
// With Options.Speed N (warp.go) the client runs under libfaketime and the
// mock on a clock.Warped, both N times fast from the same instant, every
// time in a Run is the client's, and the long scenarios (the Retry-After
// ladder, ladder.go; the 30-minute outage and the endless overload,
// outage.go) fit the timeout; a grade leaves out what does not fit (Fits).
//
// Each Check is a small function over the runs of the scenarios that name
// it, giving per scenario a Finding: pass, fail, not reached (the
// scenario never led the client where the check looks) or, for a timing
// check, inconclusive (the host's noise could have made either verdict),
// with its evidence in words. The timing checks (waits.go, backoff.go,
// jitter.go, schedule.go) take a gap for the wait and up to the noise
// more; errorrate_test.go measures how often they are wrong. A check judges from the first request a rule of the
// script answered: a side request before it (a body the mock refused, a
// models listing) is not the client's answer to the fault. Bounds holds the limits some checks judge against
// (attempts and time under a persistent fault), with their defaults. Judge
// applies every check; Ledger turns a run into a ledger.Result, so that
// the client is one more column beside the built-in strategies in the
// reports of `run`.
package grade
