// Package gemini is a recovery.Provider over the official Gemini Go SDK
// (google.golang.org/genai), for the Gemini API's generateContent and
// streamGenerateContent.
//
// The SDK retries only when HTTPOptions.RetryOptions ask it to, and
// continues a cut answer on its own (AutomaticContinuation, on by
// default; for a stream it also reconnects after a reset). A Provider
// sets RetryOptions to one attempt on the client and on every request and
// turns continuation off, so that the recovery engine is the one retry
// loop and every request on the wire is an attempt it counted.
//
// Send maps a recovery.Request onto one generateContent call: the system
// prompt as systemInstruction, the messages as contents (role user, and
// model for the assistant; tool calls as functionCall parts, tool results
// as functionResponse parts named after their call), max_tokens as
// generationConfig.maxOutputTokens. The answer becomes a
// *recovery.Response with the first candidate's text and calls and the
// usageMetadata's counts; its finishReason is worded as the classifier
// reads stop reasons (STOP end_turn, or tool_use with calls; MAX_TOKENS
// max_tokens; SAFETY and the other safety stops refusal).
//
// An error status becomes a *recovery.APIError whose Type is the Google
// status (RESOURCE_EXHAUSTED, UNAVAILABLE, INVALID_ARGUMENT, ...), with
// the google.rpc.RetryInfo retryDelay of the body's details as RetryDelay
// (or the "Please retry in 14.65s" of a message without details) and each
// google.rpc.QuotaFailure violation's quotaId in QuotaIDs, and the
// response headers, wrapping the SDK's genai.APIError; a body that is not
// Google's error JSON still gives its status and its words. A 200 whose
// body broke is a *recovery.BodyError; any other failure is the SDK's
// error wrapped with %w. The SDK's errors carry no headers: the Provider
// wraps the HTTP client's transport to keep each response.
//
// WithStream sends by streamGenerateContent?alt=sse instead (stream.go).
//
// A Provider encodes each message once, as the SDK encodes a Content, and
// hands the SDK the joined contents (through HTTPOptions'
// ExtrasRequestProvider, as a json.RawMessage), byte for byte what the
// SDK would have encoded (body.go).
package gemini
