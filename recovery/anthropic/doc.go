// Package anthropic is a recovery.Provider over the official Anthropic Go
// SDK (github.com/anthropics/anthropic-sdk-go/v2).
//
// The SDK retries on its own (twice by default, on connection errors, 408,
// 409, 429 and 5xx, honouring x-should-retry and retry-after). A Provider
// switches that off with option.WithMaxRetries(0), added after every option
// the caller gives, so that the recovery engine is the one retry loop and
// every request on the wire is an attempt it counted.
//
// Send maps a recovery.Request onto one Messages API call and back: an
// answer becomes a *recovery.Response with its headers, an error status a
// *recovery.APIError that wraps the SDK's *anthropic.Error, and any other
// failure the SDK's error wrapped with %w, so that the classifier can still
// find the connection reset or the context error in its chain.
//
// A Provider encodes each message with the SDK's own encoder once and
// hands the SDK the spliced body (option.WithRequestBody), byte for byte
// what the SDK would have encoded (body.go): a resend and each step of an
// agent turn cost no encoding of what was sent before. The params the SDK
// is given hold the model and the output budget only, so an OpenTelemetry
// span that records request content sees no messages.
package anthropic
