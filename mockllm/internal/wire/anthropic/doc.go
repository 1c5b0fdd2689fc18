// Package anthropic is the mock's Anthropic Messages API wire: POST
// <base>v1/messages and v1/messages/count_tokens. It reads a body in one
// pass (decode.go, blocks.go), holds its messages to the real API's rules
// (check.go: no empty text, every tool_result answering a tool_use of the
// message before and every tool_use answered), words the errors as the
// real API does ("max_tokens: Field required", not_found_error,
// rate_limit_error, 529 overloaded_error with x-should-retry) and renders
// messages and their events (render.go).
package anthropic
