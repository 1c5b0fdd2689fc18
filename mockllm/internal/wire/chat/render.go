package chat

import (
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openai"
)

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

// appendCompletion appends a chat.completion object, naming the tier
// that served it (tier: what the request asked, nil for nothing).
func appendCompletion(b []byte, a *wire.Answer, created int64, tier []byte) []byte {
	b = appendHead(b, a, created, "chat.completion")
	b = append(b, `,"choices":[{"index":0,"message":{"role":"assistant","content":`...)
	if a.HasText() {
		b = jsonscan.AppendString(b, a.Text)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"refusal":null,"annotations":[]`...)
	if len(a.Tools) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i := range a.Tools {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendToolCall(b, &a.Tools[i], a.Tools[i].Input)
		}
		b = append(b, ']')
	}
	b = append(b, `},"logprobs":null,"finish_reason":`...)
	b = jsonscan.AppendString(b, finishReason(a.Stop))
	b = append(b, `}],"usage":`...)
	b = appendUsage(b, a)
	b = openai.AppendServiceTier(append(b, `,"service_tier":`...), tier)
	return append(b, `,"system_fingerprint":null}`...)
}

// appendHead appends the fields that open a completion or a chunk.
func appendHead(b []byte, a *wire.Answer, created int64, object string) []byte {
	b = append(b, `{"id":`...)
	b = jsonscan.AppendString(b, a.ID)
	b = append(b, `,"object":"`...)
	b = append(b, object...)
	b = append(b, `","created":`...)
	b = strconv.AppendInt(b, created, 10)
	b = append(b, `,"model":`...)
	return jsonscan.AppendString(b, a.Model)
}

// appendChunkHead appends the fields that open a chunk: appendHead's,
// then the tier that served the request and the fingerprint, as every
// chunk of OpenAI's carries them.
func appendChunkHead(b []byte, r *wire.Reply) []byte {
	b = appendHead(b, &r.Ans, r.Created, "chat.completion.chunk")
	b = openai.AppendServiceTier(append(b, `,"service_tier":`...), r.Echo.RawOf("service_tier"))
	return append(b, `,"system_fingerprint":null`...)
}

func appendToolCall(b []byte, t *wire.ToolCall, args string) []byte {
	b = append(b, `{"id":`...)
	b = jsonscan.AppendString(b, t.ID)
	b = append(b, `,"type":"function","function":{"name":`...)
	b = jsonscan.AppendString(b, t.Name)
	b = append(b, `,"arguments":`...)
	b = jsonscan.AppendString(b, args)
	return append(b, `}}`...)
}

func appendUsage(b []byte, a *wire.Answer) []byte {
	b = append(b, `{"prompt_tokens":`...)
	b = strconv.AppendInt(b, int64(a.Input), 10)
	b = append(b, `,"completion_tokens":`...)
	b = strconv.AppendInt(b, int64(a.Output), 10)
	b = append(b, `,"total_tokens":`...)
	b = strconv.AppendInt(b, int64(a.Input+a.Output), 10)
	b = append(b, `,"prompt_tokens_details":{"cached_tokens":`...)
	b = strconv.AppendInt(b, int64(a.CacheRead), 10)
	return append(b, `,"audio_tokens":0},`+
		`"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`...)
}

// Stream appends the chunks of a streamed completion, as OpenAI
// sends them: the role, the content in pieces, each tool call's name then
// its arguments in pieces, the finish reason; with include_usage every
// chunk says "usage":null and one last chunk with no choices carries it;
// then [DONE].
func (Wire) Stream(ev *wire.Events, r *wire.Reply) {
	a := &r.Ans
	// chunk appends a chunk whose delta is choice, or choice, s as a JSON
	// string and tail.
	chunk := func(choice, s, tail string) {
		b := appendChunkHead(ev.Begin(""), r)
		b = append(b, `,"choices":[{"index":0,"delta":`...)
		b = append(b, choice...)
		if tail != "" {
			b = jsonscan.AppendString(b, s)
			b = append(b, tail...)
			ev.Carry(len(s))
		}
		b = append(b, `,"logprobs":null,"finish_reason":null}]`...)
		if r.Usage {
			b = append(b, `,"usage":null`...)
		}
		ev.End(append(b, '}'))
	}
	if a.HasText() {
		chunk(`{"role":"assistant","content":"","refusal":null}`, "", "")
	} else {
		chunk(`{"role":"assistant","content":null,"refusal":null}`, "", "")
	}
	wire.Chunks(a.Text, func(s string) { chunk(`{"content":`, s, "}") })
	for i := range a.Tools {
		t := &a.Tools[i]
		first := strconv.AppendInt([]byte(`{"tool_calls":[{"index":`), int64(i), 10)
		first = append(first, `,"id":`...)
		first = jsonscan.AppendString(first, t.ID)
		first = append(first, `,"type":"function","function":{"name":`...)
		first = jsonscan.AppendString(first, t.Name)
		chunk(string(append(first, `,"arguments":""}}]}`...)), "", "")
		head := `{"tool_calls":[{"index":` + strconv.Itoa(i) + `,"function":{"arguments":`
		wire.Chunks(t.Input, func(s string) { chunk(head, s, "}}]}") })
	}

	b := appendChunkHead(ev.Begin(""), r)
	b = append(b, `,"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":`...)
	b = jsonscan.AppendString(b, finishReason(a.Stop))
	b = append(b, `}]`...)
	if r.Usage {
		b = append(b, `,"usage":null`...)
	}
	ev.End(append(b, '}'))
	if r.Usage {
		b := appendChunkHead(ev.Begin(""), r)
		b = append(b, `,"choices":[],"usage":`...)
		ev.End(append(appendUsage(b, a), '}'))
	}
	ev.End(append(ev.Begin(""), "[DONE]"...))
}
