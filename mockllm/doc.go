// Package mockllm is a deterministic mock of the Anthropic Messages API,
// of OpenAI's Chat Completions and Responses API, of the Gemini API's
// generateContent, of Azure OpenAI's Chat Completions and of Amazon
// Bedrock's InvokeModel for Anthropic's models, JSON and streamed, that replays a
// scenario's fault script over real HTTP, so that a recovery engine, an
// official SDK or any client can be run against 429 bursts, 529s, context
// overflow, truncation, resets, hangs and broken streams without a real
// model. It never imports the recovery engine.
//
// # Serving
//
// A Server serves each scenario at POST /<scenario>/v1/messages (Anthropic;
// and v1/messages/count_tokens), POST /<scenario>/v1/chat/completions
// (OpenAI Chat Completions), POST /<scenario>/v1/responses (OpenAI's
// Responses API; an OpenAI SDK's base URL is <base>v1/) and POST
// /<scenario>/v1beta/models/{model}:generateContent (Gemini; and
// :streamGenerateContent?alt=sse, :countTokens; the key in x-goog-api-key
// or ?key=), and Azure OpenAI's Chat Completions at POST
// /<scenario>/openai/deployments/{deployment}/chat/completions?api-version=V
// and /<scenario>/openai/v1/chat/completions (the key in api-key), and
// Bedrock's InvokeModel at POST /<scenario>/model/{modelId}/invoke and
// invoke-with-response-stream (the AWS event stream), Vertex AI's
// Anthropic models at POST
// /v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict
// (and :streamRawPredict; the project names the scenario, or
// <scenario>--<session> the session too), and OpenRouter's Chat
// Completions at POST /<scenario>/api/v1/chat/completions; one script
// answers all eight. WithDefaultScenario serves a scenario at the paths
// that name none, for a Bedrock client whose request path is absolute.
// docs/wire.md describes each wire, the request rules
// the mock enforces in the real APIs' words, and the journal. Start puts it on a loopback
// listener and Endpoint.BaseURL gives a scenario's base URL. Requests
// belong to sessions, named by the X-Faultbench-Session header ("default"
// when absent), or by the path: /<scenario>/s/<session>/v1/... is that
// session, whatever the header says (pathsession.go; Endpoint.SessionURL). A session has its own clock and start (Open; a session the
// harness did not open starts at its first request, on the server's
// clock), its own request numbering, and its own count of how often each
// rule has answered. Sessions share nothing but the scenario, which is
// never written. A server keeps at most 10,000 sessions (a new one past
// that is refused until a reset) and refuses a session name over 200
// bytes.
//
// GET /_faultbench/journal serves the journal as JSON (?scenario= and
// ?session= filter it); POST /_faultbench/reset forgets every session
// and refills every scenario's quotas, those of New and of Add alike.
// POST /_faultbench/scenarios serves one more scenario, declared in code
// (YAML or JSON, checked as a file is; adminscenario.go), and DELETE
// /_faultbench/scenarios/NAME removes it.
//
// # What a request gets, in order
//
//  1. The body: over 32 MB is 413 request_too_large; malformed JSON, a
//     field of the wrong type or a missing required one is 400
//     invalid_request_error naming the field, in the wire's words
//     (Anthropic: "max_tokens: Field required"; OpenAI: "Missing required
//     parameter: 'messages'." with its param and code). OpenAI's
//     max_tokens (or max_completion_tokens) may be left out. Then the
//     conversation's rules, as the real APIs word them (each wire's
//     check.go under internal/wire): no empty text block, no empty content but in a
//     final assistant message, every tool result answering a call of the
//     message before, every call answered, a known anthropic-version.
//  2. The input is counted by the token rule of internal/tokens over every
//     text the request carries. Anthropic: the system prompt, each text
//     block, the raw JSON of each tool_use input as sent, each
//     tool_result's text. OpenAI: each message's content (a string, or its
//     text and refusal parts) and its tool calls' arguments; system and
//     developer messages are the system prompt. There is no per-message
//     overhead, so declared sizes are exact. Tool definitions count (each
//     name, description and raw schema); other parts (images, thinking)
//     count nothing.
//  3. A model the scenario does not list is 404 (OpenAI: model_not_found).
//  4. The model's limits hold whatever the script says, worded as the real
//     API of the wire words them: max_tokens above max_output; the input
//     alone over the window ("prompt is too long: N tokens > M maximum";
//     OpenAI: 400 context_length_exceeded, "This model's maximum context
//     length is M tokens. However, your messages resulted in N tokens...");
//     input plus max_tokens over it ("input length and `max_tokens` exceed
//     context limit: ..."; OpenAI: "...you requested A tokens (N in the
//     messages, B in the completion)...").
//  5. A request that comes before the wait a scripted 429, 503 or 529 of
//     the session asked for on the same model (retry-after, retry-after-ms,
//     the rate-limit reset headers, RetryInfo) is refused with that error
//     again, asking for the wait left, and uses no rule up, as a real
//     limiter refuses it; a rule's early_retry: scripted hands it to the
//     script instead (earlyretry.go).
//  6. The script: the first rule whose when matches the request (model;
//     attempt, the request's number among the session's requests of its
//     purpose, rejected ones included; virtual time since the session
//     began, After <= t < Before; purpose) and whose times is not used up
//     in this session answers it, with an error, a fault or an answer. An
//     error or a fault answers at once; a normal answer (ok, tool calls,
//     headers alone), and no rule matching, only once the model's capacity
//     and quotas admit it (below): refused, the rule is not used up.
//  7. An answer needs the turn's answer_tokens (a repair call: the
//     compaction's summary_tokens; 1000 when the scenario gives 0). One
//     longer than max_tokens (OpenAI without max_tokens: max_output) is
//     cut there: HTTP 200, stop_reason max_tokens (finish_reason length),
//     output tokens = the limit. With "stream": true it comes as the real
//     API's server-sent events: Anthropic's message_start, per block
//     content_block_start, deltas of 64 bytes (text_delta, input_json_delta
//     for tool_use) and content_block_stop, a ping after the first start,
//     message_delta with the stop reason and cumulative usage,
//     message_stop; OpenAI's chat.completion.chunk objects, the usage chunk
//     when stream_options.include_usage asks, and data: [DONE].
//  8. An error is the wire's envelope — Anthropic's
//     {"type":"error","error":{"type","message"},"request_id"}, OpenAI's
//     {"error":{"message","type","param","code"}} — whose type and message
//     default to the real API's for the status (OpenAI: rate_limit_exceeded
//     and a "try again in" wait, insufficient_quota for a 402 or a 429 about
//     quota, billing or credit). A 529 carries x-should-retry: true on the
//     Anthropic wire unless the rule sets it, and its status line reads
//     "529 Overloaded"; on OpenAI's wires an overload is a 503
//     server_error; on Gemini's, 503 UNAVAILABLE. Gemini's envelope is
//     {"error":{"code","message","status","details"}}, a 429 there is
//     RESOURCE_EXHAUSTED with QuotaFailure, Help and RetryInfo details
//     (the wait in retryDelay, never in retry-after). OpenAI answers carry
//     x-ratelimit-{limit,remaining,reset}-{requests,tokens}. A 429 states
//     one wait (ratelimit.go): what its rule's headers ask, else the time
//     left in its window, else 1 s; a rate-limit 429 carries it in
//     retry-after unless the rule sets one, and OpenAI's message and reset
//     headers say the same. A rule's headers are set as given; an empty
//     value removes one the mock sends. Absolute times in them are moved to
//     the session's start (absolute.go). A rule's body (respond.body)
//     replaces the envelope, sent as written: a provider's own shape,
//     whose error.message the journal records.
//
// # Wires
//
// Each API the mock speaks is a wire.Wire (internal/wire): one value per
// API, in its own folder, that decodes and checks a body, words the
// mock's errors, renders answers and stream events, sets the wire's
// headers and names its IDs. The server never asks which wire it has: it
// routes by the wire's Spec().Path, runs the same script, quotas, faults
// and journal for all, and lets the wire speak. Anthropic's Messages API
// is internal/wire/anthropic, Chat Completions internal/wire/chat, the
// Responses API internal/wire/responses, the Gemini API
// internal/wire/gemini, Azure OpenAI internal/wire/azure (the chat wire
// behind Azure's routes), Bedrock internal/wire/bedrock (the Messages
// API's wire behind Bedrock's routes, errors and event stream), Vertex AI
// internal/wire/vertex (the anthropic wire behind Vertex's routes), OpenRouter internal/wire/openrouter (the
// chat wire behind OpenRouter's route); internal/wire/openai is what the
// two OpenAI wires share (the error envelope and wording, the headers,
// the readers of model, stream, max tokens and content parts), by
// embedding openai.Base.
//
// To add a wire (say Bedrock's Converse): make a folder
// internal/wire/NAME with a type that implements wire.Wire (var _
// wire.Wire = Wire{} beside it): Spec gives its journal name, its route
// under a scenario's base URL, the path segments after v1/ it owns (for
// the 404 of a path nobody serves) and the forms of its IDs; Decode fills
// a wire.Request (model, output budget, stream, the tokens of every text,
// KeepLast's last message) from a body walked with wire.Scanner, and
// checks it in the real API's words; the Errors methods, Body, Stream,
// Broken, Failed, Headers and StopReason word and render the rest. Then
// add its value to the list in wires.go. Nothing else changes: no other
// wire, no switch in the server. A wire with a second endpoint that
// answers without the script implements wire.Counter, as Anthropic's
// count_tokens does. A wire whose path carries the request's parameters
// (Gemini's model and method) implements wire.Router: its Route reads
// the path and query, and the server asks it before the fixed paths; a
// wire whose errors state their wait in the body (Gemini's RetryInfo)
// sets Spec.WaitInBody and Error.Wait, and gets no retry-after header. The scenario's error types are Anthropic's words
// (overloaded_error, rate_limit_error); a wire maps them in Scripted.
//
// # Quotas, capacity and speed
//
// A model's limits (rpm, itpm, otpm) are token buckets (internal/bucket): each
// holds its per-minute limit, starts full and refills continuously on the
// session's clock. A request no rule took, or one a rule answers normally,
// is admitted only when the model has fewer than capacity.concurrent answers in flight (else 529
// overloaded_error) and every bucket can pay: 1 request, the counted
// input, and max_tokens of output reserved, settled to the real output
// when the answer ends (else 429 rate_limit_error naming the limit that
// waits longest, retry-after in whole seconds rounded up). Every answer
// for such a model carries the buckets' state:
// anthropic-ratelimit-{requests,input-tokens,output-tokens,tokens}-{limit,remaining,reset}
// on the Anthropic wire, x-ratelimit-{limit,remaining,reset}-{requests,tokens}
// on the OpenAI ones (each wire sets its own). The buckets are the scenario's, shared
// by the sessions requests open (serve); a session the harness opens with
// Open has its own, on its own clock. A model's speed makes an answer
// take first_token plus its output at output_tokens_per_second on the
// clock (speed.go); that is how long it is in flight.
//
// # The prompt cache
//
// A model whose scenario declares a cache keeps the prefixes of the
// prompts it answers (cache.go; docs/cost.md), shared as its buckets are:
// Anthropic's up to each cache_control breakpoint a request marks (at
// most 4, 5-minute or 1-hour lifetimes renewed on a hit, read through the
// 20 block boundaries before a breakpoint), OpenAI's automatically at
// each message boundary of an exact prefix. The decoders key a prompt in
// its prompt order (internal/wire/prefix.go) without keeping its texts.
// An answer reports what it read and wrote in the wire's usage fields
// (cache_read_input_tokens, cache_creation_input_tokens and
// cache_creation; cached_tokens). A prefix shorter than min_tokens is
// never cached, and a rule's cache: miss reads nothing.
//
// Every response carries a request ID (request-id; OpenAI: x-request-id),
// "req_" and 24 hex digits hashed from the scenario, the session, the
// request's number and the resets before the session began, so a replay
// on a new server sends the same bytes and no ID repeats in a server's
// lifetime.
//
// # Faults
//
// A rule's fault (scenario.Fault) answers in a way no status can say:
// reset (TCP RST before any header), hang (nothing until the client gives
// up or the server shuts down), garbage (bytes that are no HTTP, then
// close), malformed (a 200 whose JSON is broken: half the body and a NUL,
// or a stream's second event cut short), empty (a 200 with no body, or a
// stream with no event), cut_after N (N stream events, or half a body,
// then the connection drops), error_after N (N stream events, then an SSE
// error event, overloaded_error unless the rule's type says otherwise;
// without a stream, that error's status), dribble (a wait before each
// event, or each 64 bytes of a body) and delay (a wait before the
// headers).
//
// The mock waits on the session's clock: clock.Real in serve mode, the
// run's virtual clock in the harness. A clock that is a Waiter decides the
// waits itself, and may know the client's deadline: the harness's moves
// its virtual clock and ends a wait that would pass the deadline, and the
// mock then hangs up, so that a ten-minute hang costs a loopback round
// trip. A hang always ends with the request: when the client gives up, or
// when Endpoint.Close shuts the server down.
//
// # The journal
//
// Every request is journaled as an Entry when it is taken (one that
// reached no session — an unknown path, another method than POST, a
// models listing, count_tokens — with its Route and Method, using up no
// request number; a body holding the same JSON as one the session sent
// before, whatever its keys' order, with its Resend): what the client sent
// (API, model, max_tokens, input tokens, stream, the retry count header
// of the official SDKs; a body refused for a field keeps the model,
// max_tokens and stream it named), what it got (status, kind, fault,
// output tokens, the error's type and message, the script rule that
// answered), the
// gap since the session's previous request, the wait an error asked for
// and whether the next request honoured it. Status is what the client saw:
// 0 when no header came (reset, hang, garbage, or a delay that outlasts a
// known client deadline), 200 for a fault inside a 200. Entry.Kind labels
// it: ok, truncated (a 200 cut at max_tokens), context_overflow (the two
// window 400s, or a scripted 400/413 that says the prompt or context is
// too long), invalid_request (other 400s and 405), auth (401),
// quota_exhausted (402, or a 429 whose message mentions quota, billing or
// credit), permission (403), not_found (404), timeout (408, a hang, a wait
// past the client's deadline), conflict (409), request_too_large (413),
// rate_limit (429), server (5xx), overloaded (529, or an overloaded_error
// of any status or in a stream), connection (reset, garbage, a cut),
// malformed and empty. Summarize sums a journal up per session.
//
// The journal is bounded (journal.go): an entry keeps at most 256 bytes of
// the client's model and purpose, a session its newest 100,000 entries,
// a server 500,000 across its sessions; what is dropped is counted
// (Server.Dropped, DroppedHeader), and the journal is written out an entry
// at a time. An Endpoint started with Limits also bounds slow, idle and
// too many clients, in real time (docs/security.md).
//
// # Determinism
//
// The mock never reads the wall clock or a global random source: time
// comes from the Clock it is given, IDs from a hash. Each body is read
// once, from a reader limited to 32 MB: the decoders check its syntax and
// measure its texts in place, in one pass. It keeps no request body, but
// for the sessions the harness opens, which remember the last one to read
// a resent history once (internal/wire/memo.go).
package mockllm
