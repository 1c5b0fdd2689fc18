// Package openrouter is the mock's OpenRouter wire: OpenAI's Chat
// Completions at POST <base>api/v1/chat/completions (an SDK's base URL is
// <base>api/v1/), the chat wire's decoder and answers behind OpenRouter's
// route, auth and errors. A request without a bearer token is OpenRouter's
// 401; its routing fields are held to their types (models a list of at
// most 3 model names, provider an object). Errors are OpenRouter's
// {"error":{"code":N,"message","metadata"}}, N the HTTP status: a 402
// names its limit_source (openrouter_credits unless the rule's type says
// openrouter_key_limit) and no wait fixes it; an error a rule types
// provider_error is "Provider returned error" with the provider's name
// and its raw body in metadata; one typed in_body comes with HTTP 200,
// the error in the body, as OpenRouter answers a request once the model
// started on it. An error inside a stream is a chunk carrying the error
// beside a choice whose finish_reason is "error".
package openrouter
