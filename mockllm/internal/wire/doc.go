// Package wire is the contract between the mock's server and the APIs it
// speaks. A Wire decodes and checks a request body in the real API's
// words, words the mock's own errors (an unknown model, a model's limits,
// a rule's status, a rate-limit 429), renders an answer as a JSON body or
// as server-sent events, sets the wire's headers and names its IDs. The
// server (mockllm) routes, runs the script, the quotas, the faults and the
// journal the same way whatever the wire; it never asks which wire it has.
//
// The package also holds what every wire is made of: the Request the
// decoders fill, the Answer and Error they render, the Events a stream is
// built in, the Scanner and memo the decoders walk a body with, and the
// token rule by length (CountBytes, ToolTokens).
//
// The wires live beside it, one folder each: anthropic (the Messages API),
// chat (OpenAI's Chat Completions), responses (OpenAI's Responses API),
// gemini (the Gemini API), azure (Azure OpenAI's Chat Completions: the
// chat wire behind Azure's routes, auth and errors), bedrock (Amazon
// Bedrock's InvokeModel: the Anthropic wire behind Bedrock's routes, its
// exceptions and the AWS event stream), vertex (Vertex AI's rawPredict:
// the anthropic wire behind Vertex's routes, auth and Google's errors), openrouter (OpenRouter's Chat Completions: the chat
// wire behind its route and errors), and openai, what the
// two OpenAI wires share (their error envelope and
// wording, their headers, the readers of model, stream, an output budget
// and content parts). A wire is a value with no state; one serves every
// request.
package wire
