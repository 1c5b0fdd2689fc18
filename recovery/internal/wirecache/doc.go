// Package wirecache keeps the JSON of the messages a provider last sent,
// so that a resend of the same request (a blind strategy sends the same
// bytes five times) and each step of an agent turn (whose history only
// grows) encode only the messages that are new. The SDK transports
// (recovery/anthropic, recovery/openai) encode each message with the
// SDK's own encoder, cache it here, and splice the cached messages into
// the SDK's encoding of the rest of the request: the body is byte for byte
// what the SDK would have sent.
package wirecache
