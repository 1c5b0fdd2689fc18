// Package mocktest starts the mock LLM (package mockllm) for one Go test,
// so that a test of your own agent points its real client — the official
// Anthropic or OpenAI SDK, or any HTTP client — at a real server on
// 127.0.0.1 that replays a scenario's faults, then reads what the agent did
// from the mock's journal and fails the test when it broke a budget.
//
// Start takes a scenario as YAML text (often a mock-only one: models and
// a script, no turn), StartFile a scenario file, New one built in code;
// Mock.Add declares one more on the same mock for one test (removed when
// that test ends), as `faultbench serve`'s POST /_faultbench/scenarios
// does for a test in another language.
// Each checks the scenario as `faultbench validate` does and fails the
// test with the file, line and field of every problem; each listens on
// 127.0.0.1 on a port the system picks, and registers the server's
// shutdown with t.Cleanup. The mock answers on the wall clock unless
// WithClock gives it a clock of your own (a fake clock your agent also
// sleeps on, so that a scripted retry-after costs no real time).
//
// BaseURL is the Anthropic and the Gemini SDK's base URL for the
// scenario, OpenAIBaseURL the OpenAI SDK's (Chat Completions and the
// Responses API). Entries and
// Requests are the journal (docs/wire.md), Summary sums it up, Result
// reads it as a strategy's ledger.Result (as `faultbench grade` does).
// AssertExpect holds the journal to the scenario's expect block for
// "client"; AssertRequests, AssertStatuses and AssertHonoredRetryAfter
// check one figure each. Every assertion fails the test with t.Errorf and
// a message that names the scenario, what was expected, what happened,
// and the journal's statuses in order.
package mocktest
