// Package mockllm is a deterministic mock of the Anthropic Messages API
// (non-streaming, for now) that replays a scenario's fault script over real
// HTTP, so a recovery engine, an official SDK or any client can be run
// against 429 bursts, 529s, context overflow and truncation without a real
// model. It never imports the recovery engine.
//
// # Serving
//
// A Server serves each scenario at POST /<scenario>/v1/messages; Start puts
// it on a loopback listener and Endpoint.BaseURL gives the base URL an SDK
// is pointed at. Requests belong to sessions, named by the
// X-Faultbench-Session header ("default" when absent). A session has its
// own clock and start (Open; a session the harness did not open starts at
// its first request, on the server's clock), its own request numbering,
// and its own count of how often each rule has answered. Sessions share
// nothing but the scenario, which is never written.
//
// # What a request gets, in order
//
//  1. The body: over 32 MB is 413 request_too_large; malformed JSON, a
//     field of the wrong type, a missing model, max_tokens or messages, or
//     max_tokens below 1 is 400 invalid_request_error naming the field
//     ("max_tokens: Field required"); "stream": true is 400 too.
//  2. The input is counted by the token rule of internal/tokens over every
//     text the request carries: the system prompt, each text block, the
//     raw JSON of each tool_use input as sent, and each tool_result's text.
//     There is no per-message overhead, so declared sizes are exact. Tool
//     definitions and other block types (images, thinking) count nothing.
//  3. A model the scenario does not list is 404 not_found_error.
//  4. The model's limits hold whatever the script says, worded as the real
//     API words them: max_tokens above max_output, the input alone over
//     the context window ("prompt is too long: N tokens > M maximum"), and
//     input plus max_tokens over it ("input length and `max_tokens` exceed
//     context limit: ...") are 400 invalid_request_error.
//  5. The script: the first rule whose when matches the request (model;
//     attempt, the request's number among the session's requests of its
//     purpose, rejected ones included; virtual time since the session
//     began, After <= t < Before; purpose) and whose times is not used up
//     in this session answers it. No rule matching is a complete answer.
//  6. An answer needs the turn's answer_tokens (a repair call: the
//     compaction's summary_tokens; 1000 when the scenario gives 0). One
//     longer than max_tokens is cut there: HTTP 200, stop_reason
//     max_tokens, output_tokens = max_tokens. An error is the Anthropic
//     envelope {"type":"error","error":{"type","message"},"request_id"},
//     whose type and message default to the real API's for the status; a
//     529 carries x-should-retry: true unless the rule sets it, and a
//     rule's headers are added as given.
//
// Every response carries a request-id header, "req_" and 24 hex digits
// hashed from the scenario, the session and the request's number, so a
// replay sends the same bytes.
//
// # The journal
//
// Every request that reached a known scenario is journaled as an Entry:
// what the client sent (model, max_tokens, input tokens, the retry count
// header of the official SDKs) and what it got. Entry.Kind labels what was
// served: ok, truncated (a 200 cut at max_tokens), context_overflow (the
// two window 400s, or a scripted 400/413 that says the prompt or context
// is too long), invalid_request (other 400s and 405), auth (401),
// quota_exhausted (402, or a 429 whose message mentions quota, billing or
// credit), permission (403), not_found (404), timeout (408), conflict
// (409), request_too_large (413), rate_limit (429), server (5xx) and
// overloaded (529, or an overloaded_error of any status).
//
// # Determinism
//
// The mock never reads the wall clock or a global random source: time
// comes from the Clock it is given, IDs from a hash. It keeps no request
// body: encoding/json reads each body once from a reader limited to 32 MB,
// and the decoder measures its texts in place.
package mockllm
