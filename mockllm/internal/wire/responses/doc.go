// Package responses is the mock's OpenAI Responses API wire: POST
// <base>v1/responses. It reads model, instructions, input (a string, or
// items: messages, function_call, function_call_output), max_output_tokens,
// stream and tools, requires every function_call_output to answer a
// function_call before it and every call to be answered, and renders the
// response object and its named events (response.created ...
// response.completed, or response.incomplete for an answer cut at
// max_output_tokens).
package responses
