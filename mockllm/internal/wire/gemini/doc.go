// Package gemini is the mock's Gemini API wire: POST
// <base>v1beta/models/{model}:generateContent,
// :streamGenerateContent?alt=sse and :countTokens, the model in the path
// and the key in x-goog-api-key or ?key= (route.go, a wire.Router). It
// reads contents, systemInstruction, generationConfig.maxOutputTokens and
// tools in one pass (decode.go), holds the contents to the API's rules
// (at least one, each with parts, roles user or model, a turn of function
// responses right after the call turn it answers, one response a call),
// and renders GenerateContentResponse objects, streamed as whole frames
// with no [DONE] (render.go). Its errors are Google's {"error": {code,
// message, status, details}} (errors.go): a 429 is RESOURCE_EXHAUSTED
// with QuotaFailure, Help and RetryInfo details and no retry-after
// header; an overload is 503 UNAVAILABLE.
package gemini
