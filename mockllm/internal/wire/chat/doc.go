// Package chat is the mock's OpenAI Chat Completions wire: POST
// <base>v1/chat/completions. It reads model, max_tokens (or
// max_completion_tokens), stream, stream_options.include_usage and
// messages in one pass, holds the messages to Chat Completions' rules
// (check.go: a tool message answers a call of the assistant message before
// it, every call is answered), and renders chat.completion objects and
// chat.completion.chunk events ending in data: [DONE].
package chat
