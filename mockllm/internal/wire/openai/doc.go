// Package openai is what OpenAI's two wires (chat, responses) share:
// their error envelope {"error":{"message","type","param","code"}} and its
// wording (Param, Missing, TypeError; Scripted's defaults per status: a 503
// server_error for an overload, insufficient_quota, rate_limit_exceeded
// with "Please try again in"), their headers (x-request-id and
// x-ratelimit-*), and the readers of the fields both bodies have: the
// model, stream, an output budget and content given as a string or parts.
// A wire embeds Base and adds its route, its decoder and its answers.
package openai
