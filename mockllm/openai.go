package mockllm

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/faultbench/faultbench/internal/jsonscan"
)

// The OpenAI Chat Completions wire format: the error object, the
// completion, the chunks of a stream, and the rate-limit headers.

// openaiScripted is the error a rule answers with on the OpenAI wire: the
// rule's type and message, or OpenAI's for the status. The code is
// OpenAI's for what the error is: context_length_exceeded,
// insufficient_quota (a 402, or a 429 about quota, billing or credit),
// rate_limit_exceeded, invalid_api_key, model_not_found.
func openaiScripted(status int, typ, msg, model string, wait time.Duration, requestID string) *apiError {
	e := &apiError{status: status, typ: typ, msg: msg}
	quota := status == 402 || (status == 429 && mentions(typ+" "+msg, "quota", "billing", "credit", "usage limit"))
	switch {
	case status == 529 || typ == "overloaded_error":
		// OpenAI says overloaded with a 503 and a server_error.
		e.status = http.StatusServiceUnavailable
		if e.typ == "" || e.typ == "overloaded_error" {
			e.typ = "server_error"
		}
		defaults(e, "server_error", "That model is currently overloaded with other requests. You can retry your request, "+
			"or contact us through our help center at help.openai.com if the error persists. (Please include the request ID "+
			requestID+" in your message.)")
		e.kind = kindOverloaded
		return e
	case quota:
		e.code = "insufficient_quota"
		defaults(e, "insufficient_quota", "You exceeded your current quota, please check your plan and billing details. "+
			"For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.")
	case status == 429:
		e.code = "rate_limit_exceeded"
		defaults(e, "requests", fmt.Sprintf("Rate limit reached for %s in organization org-faultbench on requests per min (RPM): "+
			"Limit 500, Used 500, Requested 1. Please try again in %s. Visit https://platform.openai.com/account/rate-limits to learn more.",
			model, waitText(wait)))
	case (status == 400 || status == 413 || status == 422) && isContextMessage(msg):
		e.code, e.param = "context_length_exceeded", "messages"
		defaults(e, "invalid_request_error", "")
	case status == 401:
		e.code = "invalid_api_key"
		defaults(e, "invalid_request_error", "Incorrect API key provided: fb-***. You can find your API key at https://platform.openai.com/account/api-keys.")
	case status == 403:
		e.code = "unsupported_country_region_territory"
		defaults(e, "request_forbidden", "Country, region, or territory not supported")
	case status == 404:
		e.code = "model_not_found"
		defaults(e, "invalid_request_error", "The model `"+model+"` does not exist or you do not have access to it.")
	case status == 500:
		defaults(e, "server_error", "The server had an error while processing your request. Sorry about that!")
	case status == 503:
		defaults(e, "server_error", "The server is overloaded or not ready yet.")
	case status >= 500:
		defaults(e, "server_error", http.StatusText(status))
	default:
		defaults(e, "invalid_request_error", http.StatusText(status))
	}
	if e.msg == "" {
		e.msg = "Invalid request"
	}
	e.kind = errorKind(status, e.typ, e.msg)
	return e
}

// defaults fills the type and message a rule left out.
func defaults(e *apiError, typ, msg string) {
	if e.typ == "" {
		e.typ = typ
	}
	if e.msg == "" {
		e.msg = msg
	}
}

// waitText writes a wait as OpenAI's messages and reset headers do:
// "84ms", "2s", "6m0s"; nothing asked is 1s.
func waitText(d time.Duration) string {
	if d <= 0 {
		d = time.Second
	}
	return d.String()
}

// The rate limits the mock's OpenAI headers claim.
const (
	openaiRequestLimit = 10000
	openaiTokenLimit   = 2000000
)

// rateLimitHeaders sets x-ratelimit-{limit,remaining,reset}-{requests,
// tokens} as OpenAI sends them on every answer; a 429 rate limit shows
// nothing remaining and resets after the wait it asks for, the wait its
// message and retry-after state.
func (r *reply) rateLimitHeaders(h http.Header) {
	remainingRequests, remainingTokens := openaiRequestLimit-1, max(0, openaiTokenLimit-r.input)
	resetRequests, resetTokens := "6ms", "0s"
	if r.err != nil && r.err.kind == kindRateLimit {
		remainingRequests, remainingTokens = 0, 0
		resetRequests = waitText(r.wait)
		resetTokens = resetRequests
	}
	h["X-Ratelimit-Limit-Requests"] = []string{strconv.Itoa(openaiRequestLimit)}
	h["X-Ratelimit-Limit-Tokens"] = []string{strconv.Itoa(openaiTokenLimit)}
	h["X-Ratelimit-Remaining-Requests"] = []string{strconv.Itoa(remainingRequests)}
	h["X-Ratelimit-Remaining-Tokens"] = []string{strconv.Itoa(remainingTokens)}
	h["X-Ratelimit-Reset-Requests"] = []string{resetRequests}
	h["X-Ratelimit-Reset-Tokens"] = []string{resetTokens}
}

// appendOpenAIError appends {"error":{"message","type","param","code"}}.
func appendOpenAIError(b []byte, e *apiError) []byte {
	b = append(b, `{"error":{"message":`...)
	b = jsonscan.AppendString(b, e.msg)
	b = append(b, `,"type":`...)
	b = jsonscan.AppendString(b, e.typ)
	b = append(b, `,"param":`...)
	b = appendNullable(b, e.param)
	b = append(b, `,"code":`...)
	b = appendNullable(b, e.code)
	return append(b, `}}`...)
}

func appendNullable(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return jsonscan.AppendString(b, s)
}

// finishReason is OpenAI's word for a stop reason.
func finishReason(stop string) string {
	switch stop {
	case "max_tokens":
		return "length"
	case "tool_use":
		return "tool_calls"
	case "refusal":
		return "content_filter"
	}
	return "stop"
}

// appendCompletion appends a chat.completion object.
func appendCompletion(b []byte, a *answer, created int64) []byte {
	b = appendHead(b, a, created, "chat.completion")
	b = append(b, `,"choices":[{"index":0,"message":{"role":"assistant","content":`...)
	if a.hasText() {
		b = jsonscan.AppendString(b, a.text)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"refusal":null,"annotations":[]`...)
	if len(a.tools) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i := range a.tools {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendToolCall(b, &a.tools[i], a.tools[i].input)
		}
		b = append(b, ']')
	}
	b = append(b, `},"logprobs":null,"finish_reason":`...)
	b = jsonscan.AppendString(b, finishReason(a.stop))
	b = append(b, `}],"usage":`...)
	b = appendOpenAIUsage(b, a)
	return append(b, `,"service_tier":"default","system_fingerprint":null}`...)
}

// appendHead appends the fields that open a completion or a chunk.
func appendHead(b []byte, a *answer, created int64, object string) []byte {
	b = append(b, `{"id":`...)
	b = jsonscan.AppendString(b, a.id)
	b = append(b, `,"object":"`...)
	b = append(b, object...)
	b = append(b, `","created":`...)
	b = strconv.AppendInt(b, created, 10)
	b = append(b, `,"model":`...)
	return jsonscan.AppendString(b, a.model)
}

func appendToolCall(b []byte, t *toolCall, args string) []byte {
	b = append(b, `{"id":`...)
	b = jsonscan.AppendString(b, t.id)
	b = append(b, `,"type":"function","function":{"name":`...)
	b = jsonscan.AppendString(b, t.name)
	b = append(b, `,"arguments":`...)
	b = jsonscan.AppendString(b, args)
	return append(b, `}}`...)
}

func appendOpenAIUsage(b []byte, a *answer) []byte {
	b = append(b, `{"prompt_tokens":`...)
	b = strconv.AppendInt(b, int64(a.input), 10)
	b = append(b, `,"completion_tokens":`...)
	b = strconv.AppendInt(b, int64(a.output), 10)
	b = append(b, `,"total_tokens":`...)
	b = strconv.AppendInt(b, int64(a.input+a.output), 10)
	return append(b, `,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},`+
		`"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`...)
}

// openaiEvents appends the chunks of a streamed completion, as OpenAI
// sends them: the role, the content in pieces, each tool call's name then
// its arguments in pieces, the finish reason; with include_usage every
// chunk says "usage":null and one last chunk with no choices carries it;
// then [DONE].
func (r *reply) openaiEvents(ev *events) {
	a := &r.ans
	// chunk appends a chunk whose delta is choice, or choice, s as a JSON
	// string and tail.
	chunk := func(choice, s, tail string) {
		b := appendHead(ev.begin(""), a, r.created, "chat.completion.chunk")
		b = append(b, `,"system_fingerprint":null,"choices":[{"index":0,"delta":`...)
		b = append(b, choice...)
		if tail != "" {
			b = jsonscan.AppendString(b, s)
			b = append(b, tail...)
			ev.carry(len(s))
		}
		b = append(b, `,"logprobs":null,"finish_reason":null}]`...)
		if r.usage {
			b = append(b, `,"usage":null`...)
		}
		ev.end(append(b, '}'))
	}
	if a.hasText() {
		chunk(`{"role":"assistant","content":"","refusal":null}`, "", "")
	} else {
		chunk(`{"role":"assistant","content":null,"refusal":null}`, "", "")
	}
	chunks(a.text, func(s string) { chunk(`{"content":`, s, "}") })
	for i := range a.tools {
		t := &a.tools[i]
		first := strconv.AppendInt([]byte(`{"tool_calls":[{"index":`), int64(i), 10)
		first = append(first, `,"id":`...)
		first = jsonscan.AppendString(first, t.id)
		first = append(first, `,"type":"function","function":{"name":`...)
		first = jsonscan.AppendString(first, t.name)
		chunk(string(append(first, `,"arguments":""}}]}`...)), "", "")
		head := `{"tool_calls":[{"index":` + strconv.Itoa(i) + `,"function":{"arguments":`
		chunks(t.input, func(s string) { chunk(head, s, "}}]}") })
	}

	b := appendHead(ev.begin(""), a, r.created, "chat.completion.chunk")
	b = append(b, `,"system_fingerprint":null,"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":`...)
	b = jsonscan.AppendString(b, finishReason(a.stop))
	b = append(b, `}]`...)
	if r.usage {
		b = append(b, `,"usage":null`...)
	}
	ev.end(append(b, '}'))
	if r.usage {
		b := appendHead(ev.begin(""), a, r.created, "chat.completion.chunk")
		b = append(b, `,"system_fingerprint":null,"choices":[],"usage":`...)
		ev.end(append(appendOpenAIUsage(b, a), '}'))
	}
	ev.end(append(ev.begin(""), "[DONE]"...))
}
