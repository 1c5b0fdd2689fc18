// Package openai is a recovery.Provider over the official OpenAI Go SDK
// (github.com/openai/openai-go/v3), for OpenAI Chat Completions and the
// many servers that speak it.
//
// The SDK retries on its own (twice by default, on connection errors, 408,
// 409, 429 and 5xx, honouring x-should-retry and retry-after). A Provider
// switches that off with option.WithMaxRetries(0), added after every option
// the caller gives and again on every request, so that the recovery engine
// is the one retry loop and every request on the wire is an attempt it
// counted.
//
// Send maps a recovery.Request onto one chat completion: the system prompt
// as a system message, then the messages in order, and max_tokens as
// max_completion_tokens (or max_tokens, for servers that only know the
// older field: WithLegacyMaxTokens). The answer becomes a
// *recovery.Response whose StopReason is the finish_reason as OpenAI
// words it (stop, length, content_filter, tool_calls; refusal when the
// model refused), which recovery.DefaultClassifier reads as it reads
// Anthropic's. An error status becomes a *recovery.APIError with the
// body's type and code (context_length_exceeded, insufficient_quota,
// rate_limit_exceeded) and the response headers (retry-after,
// x-ratelimit-reset-*), wrapping the SDK's *openai.Error; a body that is
// not OpenAI's error JSON (a proxy's page) still gives its status and its
// words. Any other failure is the SDK's error wrapped with %w, so that the
// classifier can still find the connection reset or the context error in
// its chain.
//
// A Provider encodes each message with the SDK's own encoder once and
// hands the SDK the spliced body (option.WithRequestBody), byte for byte
// what the SDK would have encoded (body.go): a resend and each step of an
// agent turn cost no encoding of what was sent before. The params the SDK
// is given hold the model only, so an OpenTelemetry span that records
// request content sees no messages.
// WithResponses sends by the Responses API instead (POST v1/responses,
// openai-go's responses client, retries off alike): the system prompt as
// instructions, the messages as input items (tool calls as function_call
// items, tool results as function_call_output items), max_tokens as
// max_output_tokens; an answer cut at max_output_tokens (status
// incomplete) has StopReason length, one that calls tools tool_calls, as
// on Chat Completions.
//
// WithStream streams chat completions ("stream": true, with
// stream_options.include_usage) and gathers the chunks into one answer; a
// stream that fails after its 200 — cut, ended before a finish reason, or
// an error event — fails the attempt whole and matches
// recovery.ErrStreamBroken, as on Anthropic's wire (stream.go).
package openai
