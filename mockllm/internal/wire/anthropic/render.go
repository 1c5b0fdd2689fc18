package anthropic

import (
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The Anthropic Messages API wire format: the error envelope, the message,
// and the events of a stream.

// appendError appends the Anthropic error envelope.
func appendError(b []byte, e *wire.Error, requestID string) []byte {
	b = append(b, `{"type":"error","error":{"type":`...)
	b = jsonscan.AppendString(b, e.Type)
	b = append(b, `,"message":`...)
	b = jsonscan.AppendString(b, e.Message)
	b = append(b, `},"request_id":`...)
	b = jsonscan.AppendString(b, requestID)
	return append(b, '}')
}

// appendAnswer appends a Messages API message: its text block (none in an
// answer that only calls tools, as the real API sends it), then a tool_use
// block per tool call.
func appendAnswer(b []byte, a *wire.Answer) []byte {
	b = append(b, `{"id":`...)
	b = jsonscan.AppendString(b, a.ID)
	b = append(b, `,"type":"message","role":"assistant","model":`...)
	b = jsonscan.AppendString(b, a.Model)
	b = append(b, `,"content":[`...)
	if a.HasText() {
		b = append(b, `{"type":"text","text":`...)
		b = jsonscan.AppendString(b, a.Text)
		b = append(b, '}')
	}
	for i := range a.Tools {
		t := &a.Tools[i]
		if i > 0 || a.HasText() {
			b = append(b, ',')
		}
		b = append(b, `{"type":"tool_use","id":`...)
		b = jsonscan.AppendString(b, t.ID)
		b = append(b, `,"name":`...)
		b = jsonscan.AppendString(b, t.Name)
		b = append(b, `,"input":`...)
		b = append(b, t.Input...)
		b = append(b, '}')
	}
	b = append(b, `],"stop_reason":`...)
	b = jsonscan.AppendString(b, a.Stop)
	b = append(b, `,"stop_sequence":null,"usage":`...)
	return append(appendUsage(b, a), '}')
}

// appendUsage appends a message's usage as the real API writes it: the
// input not read from the prompt cache nor written to it, the cache's
// two counts, the output and the service tier; an answer that read or
// wrote the cache adds the writes by lifetime (cache_creation).
func appendUsage(b []byte, a *wire.Answer) []byte {
	return appendUsageOf(b, a, a.Output)
}

func appendUsageOf(b []byte, a *wire.Answer, output int) []byte {
	b = append(b, `{"input_tokens":`...)
	b = strconv.AppendInt(b, int64(a.Uncached()), 10)
	b = append(b, `,"cache_creation_input_tokens":`...)
	b = strconv.AppendInt(b, int64(a.CacheWrite5m+a.CacheWrite1h), 10)
	b = append(b, `,"cache_read_input_tokens":`...)
	b = strconv.AppendInt(b, int64(a.CacheRead), 10)
	if a.Cached() {
		b = append(b, `,"cache_creation":{"ephemeral_5m_input_tokens":`...)
		b = strconv.AppendInt(b, int64(a.CacheWrite5m), 10)
		b = append(b, `,"ephemeral_1h_input_tokens":`...)
		b = strconv.AppendInt(b, int64(a.CacheWrite1h), 10)
		b = append(b, '}')
	}
	b = append(b, `,"output_tokens":`...)
	b = strconv.AppendInt(b, int64(output), 10)
	return append(b, `,"service_tier":"standard"}`...)
}

// Stream appends the events of a streamed answer, in the order
// the real API sends them: message_start; per block content_block_start,
// its deltas and content_block_stop, with a ping after the first block's
// start; message_delta with the stop reason and the cumulative usage;
// message_stop.
func (Wire) Stream(ev *wire.Events, r *wire.Reply) {
	a := &r.Ans
	b := ev.Begin("message_start")
	b = append(b, `{"type":"message_start","message":{"id":`...)
	b = jsonscan.AppendString(b, a.ID)
	b = append(b, `,"type":"message","role":"assistant","model":`...)
	b = jsonscan.AppendString(b, a.Model)
	b = append(b, `,"content":[],"stop_reason":null,"stop_sequence":null,"usage":`...)
	b = appendUsageOf(b, a, 1)
	ev.End(append(b, `}}`...))

	first := 0 // the index of the first tool_use block
	if a.HasText() {
		blockStart(ev, 0, `{"type":"text","text":""}`)
		ev.End(append(ev.Begin("ping"), `{"type":"ping"}`...))
		wire.Chunks(a.Text, func(s string) { delta(ev, 0, `{"type":"text_delta","text":`, s) })
		blockStop(ev, 0)
		first = 1
	}
	for i := range a.Tools {
		t := &a.Tools[i]
		index := first + i
		b := ev.Begin("content_block_start")
		b = append(b, `{"type":"content_block_start","index":`...)
		b = strconv.AppendInt(b, int64(index), 10)
		b = append(b, `,"content_block":{"type":"tool_use","id":`...)
		b = jsonscan.AppendString(b, t.ID)
		b = append(b, `,"name":`...)
		b = jsonscan.AppendString(b, t.Name)
		ev.End(append(b, `,"input":{}}}`...))
		if index == 0 {
			ev.End(append(ev.Begin("ping"), `{"type":"ping"}`...))
		}
		wire.Chunks(t.Input, func(s string) { delta(ev, index, `{"type":"input_json_delta","partial_json":`, s) })
		blockStop(ev, index)
	}

	b = ev.Begin("message_delta")
	b = append(b, `{"type":"message_delta","delta":{"stop_reason":`...)
	b = jsonscan.AppendString(b, a.Stop)
	b = append(b, `,"stop_sequence":null},"usage":`...)
	ev.End(append(appendUsage(b, a), '}'))
	ev.End(append(ev.Begin("message_stop"), `{"type":"message_stop"}`...))
}

func blockStart(ev *wire.Events, index int, block string) {
	b := ev.Begin("content_block_start")
	b = append(b, `{"type":"content_block_start","index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, `,"content_block":`...)
	ev.End(append(append(b, block...), '}'))
}

// delta appends a content_block_delta whose delta is head, the text s as
// a JSON string, and the closing brace.
func delta(ev *wire.Events, index int, head, s string) {
	b := ev.Begin("content_block_delta")
	b = append(b, `{"type":"content_block_delta","index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, `,"delta":`...)
	b = append(b, head...)
	b = jsonscan.AppendString(b, s)
	ev.Carry(len(s))
	ev.End(append(b, `}}`...))
}

func blockStop(ev *wire.Events, index int) {
	b := ev.Begin("content_block_stop")
	b = append(b, `{"type":"content_block_stop","index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	ev.End(append(b, '}'))
}
