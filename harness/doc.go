// Package harness runs every scenario against every strategy: each
// scenario × strategy run gets its own mock sessions, its own virtual
// clock and, for each turn, a random source seeded from the run's seed,
// the scenario and the turn (never the strategy, so that every strategy
// meets the same draws). It talks to the mock over real HTTP on 127.0.0.1
// through the official SDK of the scenario's wire (turn.wire): Anthropic's
// for Messages, OpenAI's for Chat Completions and Responses, their retries
// off. Runs go in parallel; results come back in a fixed order (scenarios
// as loaded, strategies as given), so the output does not depend on
// scheduling, on -parallel or on GOMAXPROCS.
//
// One pipeline plays every run (turn.go): a lone turn is a workload of
// one turn, so the client's deadline (deadline.go), the bounds on a run's
// work (bound.go) and the ledger are the same for both.
//
// # Workloads
//
// A scenario with a workload runs its turns as a fleet, per strategy: one
// engine, one virtual clock, a mock session per turn sharing the
// scenario's quota buckets (mockllm.Server.OpenFleet), all over real
// loopback HTTP. A discrete-event scheduler (sched.go) keeps it
// deterministic: exactly one turn runs at a time — its engine, its HTTP
// round trip and the mock's handling of its request. A turn stops running
// only when it waits: the engine sleeps on the scheduler's clock, or the
// mock waits on the turn's behalf (an answer in flight, a delay, a
// dribble), or the turn ends. The scheduler then moves the clock to the
// earliest wake-up among the waiting turns and the turns not yet started,
// ties broken by turn index, and hands the run to that turn. A turn
// waiting for an adaptive limiter's slot is woken by the turn that frees
// one (the scheduler is a recovery.WakeClock): its wake-up moves to that
// instant. Turn k starts
// at k × start.every (0 for together) or when one of the concurrency slots
// frees, whichever is later. Since nothing runs in parallel within a
// workload and every choice is made on virtual time, the same seed gives
// the same bytes at any -parallel and GOMAXPROCS. The engine's events are
// recorded per turn (the turn that runs), the transport telling the turn's
// record when each request goes out (its duration_ms), each turn's record is checked
// against its session's journal, and ledger.Fleet sums the turns.
//
// The harness judges each turn's outcome (docs/reports.md) and checks that the
// engine's record agrees with the server's journal, attempt for attempt.
package harness
