package responses

import (
	"bytes"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openai"
)

// The OpenAI Responses API wire format (POST <base>v1/responses): the
// response object, its output items (a message with one output_text part,
// then a function_call item per tool call), and the events of a stream.
// Errors are OpenAI's {"error":{...}} envelope, as on Chat Completions.

// responseStatus is a response's status: incomplete when the answer was
// cut at max_output_tokens, else completed.
func responseStatus(a *wire.Answer) string {
	if a.Stop == "max_tokens" {
		return "incomplete"
	}
	return "completed"
}

// responseStopReason is what the journal records as a Responses API
// answer's stop reason: the status, or max_output_tokens for a cut.
func responseStopReason(a *wire.Answer) string {
	if a.Stop == "max_tokens" {
		return "max_output_tokens"
	}
	return "completed"
}

// appendResponse appends a response object with the given status; with
// output, the answer's output items and usage, else none (the response an
// in-progress stream begins with).
//
// str appends a text or a tool call's arguments as a JSON string:
// jsonscan.AppendString, or a stream's Events.AppendString, which sends a
// long one in pieces.
func appendResponse(r *wire.Reply, b []byte, status string, output bool, str appendStr) []byte {
	a := &r.Ans
	b = append(b, `{"id":`...)
	b = jsonscan.AppendString(b, a.ID)
	b = append(b, `,"object":"response","created_at":`...)
	b = strconv.AppendInt(b, r.Created, 10)
	b = append(b, `,"status":"`...)
	b = append(b, status...)
	b = append(b, `","error":null,"incomplete_details":`...)
	if status == "incomplete" {
		b = append(b, `{"reason":"max_output_tokens"}`...)
	} else {
		b = append(b, "null"...)
	}
	b = echo(b, r, `,"background":`, "background", "false")
	b = echo(b, r, `,"instructions":`, "instructions", "null")
	b = append(b, `,"max_output_tokens":`...)
	if r.Echo.MaxOutput > 0 {
		b = strconv.AppendInt(b, int64(r.Echo.MaxOutput), 10)
	} else {
		b = append(b, "null"...)
	}
	b = echo(b, r, `,"max_tool_calls":`, "max_tool_calls", "null")
	b = append(b, `,"model":`...)
	b = jsonscan.AppendString(b, a.Model)
	b = append(b, `,"output":[`...)
	if output {
		b = appendItems(r, b, status, str)
	}
	b = append(b, ']')
	b = echo(b, r, `,"parallel_tool_calls":`, "parallel_tool_calls", "true")
	b = echo(b, r, `,"previous_response_id":`, "previous_response_id", "null")
	b = echo(b, r, `,"prompt_cache_key":`, "prompt_cache_key", "null")
	b = echo(b, r, `,"reasoning":`, "reasoning", `{"effort":null,"summary":null}`)
	b = echo(b, r, `,"safety_identifier":`, "safety_identifier", "null")
	b = openai.AppendServiceTier(append(b, `,"service_tier":`...), r.Echo.RawOf("service_tier"))
	b = append(b, `,"store":`...)
	b = strconv.AppendBool(b, !r.Echo.NoStore)
	b = echo(b, r, `,"temperature":`, "temperature", "1.0")
	b = echo(b, r, `,"text":`, "text", `{"format":{"type":"text"}}`)
	b = echo(b, r, `,"tool_choice":`, "tool_choice", `"auto"`)
	b = echo(b, r, `,"tools":`, "tools", "[]")
	b = echo(b, r, `,"top_logprobs":`, "top_logprobs", "0")
	b = echo(b, r, `,"top_p":`, "top_p", "1.0")
	b = echo(b, r, `,"truncation":`, "truncation", `"disabled"`)
	b = append(b, `,"usage":`...)
	if output {
		b = appendResponseUsage(b, a)
	} else {
		b = append(b, "null"...)
	}
	b = echo(b, r, `,"user":`, "user", "null")
	b = echo(b, r, `,"metadata":`, "metadata", "{}")
	return append(b, '}')
}

// appendStr appends a string as a JSON string.
type appendStr func(b []byte, s string) []byte

// echo appends name and the value the request sent for key, as sent, or
// def (the API's default) when it sent none.
func echo(b []byte, r *wire.Reply, name, key, def string) []byte {
	b = append(b, name...)
	if v := r.Echo.RawOf(key); v != nil {
		return append(b, v...)
	}
	return append(b, def...)
}

// appendItems appends the output items, each with the given status.
func appendItems(r *wire.Reply, b []byte, status string, str appendStr) []byte {
	a := &r.Ans
	first := true
	if a.HasText() {
		b = appendMessageItem(r, b, status, a.Text, str)
		first = false
	}
	for k := range a.Tools {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendCallItem(r, b, k, "completed", a.Tools[k].Input, str)
	}
	return b
}

func messageItemID(r *wire.Reply) string { return itemID("msg_", r.Ans.ID, 0) }

func callItemID(r *wire.Reply, k int) string { return itemID("fc_", r.Ans.ID, k+1) }

// appendMessageItem appends the message item with its text.
func appendMessageItem(r *wire.Reply, b []byte, status, text string, str appendStr) []byte {
	b = append(b, `{"type":"message","id":`...)
	b = jsonscan.AppendString(b, messageItemID(r))
	b = append(b, `,"status":"`...)
	b = append(b, status...)
	b = append(b, `","role":"assistant","content":[{"type":"output_text","text":`...)
	b = str(b, text)
	return append(b, `,"annotations":[],"logprobs":[]}]}`...)
}

// appendCallItem appends function_call item k with its arguments.
func appendCallItem(r *wire.Reply, b []byte, k int, status, args string, str appendStr) []byte {
	t := &r.Ans.Tools[k]
	b = append(b, `{"type":"function_call","id":`...)
	b = jsonscan.AppendString(b, callItemID(r, k))
	b = append(b, `,"call_id":`...)
	b = jsonscan.AppendString(b, t.ID)
	b = append(b, `,"name":`...)
	b = jsonscan.AppendString(b, t.Name)
	b = append(b, `,"arguments":`...)
	b = str(b, args)
	b = append(b, `,"status":"`...)
	b = append(b, status...)
	return append(b, `"}`...)
}

func appendResponseUsage(b []byte, a *wire.Answer) []byte {
	input, output := a.Input, a.Output
	b = append(b, `{"input_tokens":`...)
	b = strconv.AppendInt(b, int64(input), 10)
	b = append(b, `,"input_tokens_details":{"cached_tokens":`...)
	b = strconv.AppendInt(b, int64(a.CacheRead), 10)
	b = append(b, `},"output_tokens":`...)
	b = strconv.AppendInt(b, int64(output), 10)
	b = append(b, `,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":`...)
	b = strconv.AppendInt(b, int64(input+output), 10)
	return append(b, '}')
}

// responseStream builds a Responses API stream: each event named by its
// type, its data carrying the type and a sequence number.
type responseStream struct {
	ev  *wire.Events
	seq int
}

// begin starts event typ's data up to the fields after sequence_number.
func (st *responseStream) begin(typ string) []byte {
	b := st.ev.Begin(typ)
	b = append(b, `{"type":"`...)
	b = append(b, typ...)
	b = append(b, `","sequence_number":`...)
	b = strconv.AppendInt(b, int64(st.seq), 10)
	st.seq++
	return b
}

func (st *responseStream) end(b []byte) { st.ev.End(append(b, '}')) }

// Stream appends the events of a streamed response, as the real
// API sends them: response.created and response.in_progress; for the
// message, output_item.added, content_part.added, output_text.delta in
// pieces, output_text.done, content_part.done and output_item.done; for
// each function call, output_item.added, function_call_arguments.delta in
// pieces, function_call_arguments.done and output_item.done; then
// response.completed (response.incomplete for an answer cut at
// max_output_tokens).
func (Wire) Stream(ev *wire.Events, r *wire.Reply) {
	a := &r.Ans
	st := &responseStream{ev: ev}
	str := ev.AppendString
	for _, typ := range []string{"response.created", "response.in_progress"} {
		b := st.begin(typ)
		b = append(b, `,"response":`...)
		st.end(appendResponse(r, b, "in_progress", false, str))
	}
	index := 0
	if a.HasText() {
		id := messageItemID(r)
		b := st.begin("response.output_item.added")
		b = append(b, `,"output_index":0,"item":{"type":"message","id":`...)
		b = jsonscan.AppendString(b, id)
		st.end(append(b, `,"status":"in_progress","role":"assistant","content":[]}`...))
		head := func(typ string) []byte {
			b := st.begin(typ)
			b = append(b, `,"item_id":`...)
			b = jsonscan.AppendString(b, id)
			return append(b, `,"output_index":0,"content_index":0`...)
		}
		st.end(append(head("response.content_part.added"), `,"part":{"type":"output_text","text":"","annotations":[],"logprobs":[]}`...))
		wire.Chunks(a.Text, func(s string) {
			b := append(head("response.output_text.delta"), `,"delta":`...)
			b = jsonscan.AppendString(b, s)
			ev.Carry(len(s))
			st.end(append(b, `,"logprobs":[]`...))
		})
		b = append(head("response.output_text.done"), `,"text":`...)
		b = str(b, a.Text)
		st.end(append(b, `,"logprobs":[]`...))
		b = append(head("response.content_part.done"), `,"part":{"type":"output_text","text":`...)
		b = str(b, a.Text)
		st.end(append(b, `,"annotations":[],"logprobs":[]}`...))
		b = append(st.begin("response.output_item.done"), `,"output_index":0,"item":`...)
		st.end(appendMessageItem(r, b, responseStatus(a), a.Text, str))
		index++
	}
	for k := range a.Tools {
		id := callItemID(r, k)
		b := st.begin("response.output_item.added")
		b = append(b, `,"output_index":`...)
		b = strconv.AppendInt(b, int64(index), 10)
		b = append(b, `,"item":`...)
		st.end(appendCallItem(r, b, k, "in_progress", "", str))
		head := func(typ string) []byte {
			b := st.begin(typ)
			b = append(b, `,"item_id":`...)
			b = jsonscan.AppendString(b, id)
			b = append(b, `,"output_index":`...)
			return strconv.AppendInt(b, int64(index), 10)
		}
		wire.Chunks(a.Tools[k].Input, func(s string) {
			b := append(head("response.function_call_arguments.delta"), `,"delta":`...)
			b = jsonscan.AppendString(b, s)
			ev.Carry(len(s))
			st.end(b)
		})
		b = append(head("response.function_call_arguments.done"), `,"arguments":`...)
		st.end(str(b, a.Tools[k].Input))
		b = append(st.begin("response.output_item.done"), `,"output_index":`...)
		b = strconv.AppendInt(b, int64(index), 10)
		b = append(b, `,"item":`...)
		st.end(appendCallItem(r, b, k, "completed", a.Tools[k].Input, str))
		index++
	}
	status := responseStatus(a)
	b := st.begin("response." + status)
	b = append(b, `,"response":`...)
	st.end(appendResponse(r, b, status, true, str))
}

// Failed appends what a Responses API stream ends with when the
// server fails mid-way: an error event, then response.failed with the
// error in the response.
func (Wire) Failed(ev *wire.Events, r *wire.Reply, e *wire.Error) {
	st := &responseStream{ev: ev, seq: ev.Len()}
	code := e.Code
	if code == "" {
		code = "server_error"
	}
	b := st.begin("error")
	b = append(b, `,"code":`...)
	b = jsonscan.AppendString(b, code)
	b = append(b, `,"message":`...)
	b = jsonscan.AppendString(b, e.Message)
	st.end(append(b, `,"param":null`...))
	b = st.begin("response.failed")
	b = append(b, `,"response":`...)
	resp := appendResponse(r, nil, "failed", false, jsonscan.AppendString)
	// The failed response carries its error where the others say null.
	failed := append([]byte(`{"code":`), jsonscan.AppendString(nil, code)...)
	failed = append(append(failed, `,"message":`...), jsonscan.AppendString(nil, e.Message)...)
	failed = append(failed, '}')
	resp = bytes.Replace(resp, []byte(`"error":null`), append([]byte(`"error":`), failed...), 1)
	st.end(append(b, resp...))
}

// itemID is the ID of output item k of an answer: msg_ for the message,
// fc_ for a function call.
func itemID(prefix string, answer string, k int) string {
	return prefix + wire.Hex('i', answer, prefix, k)
}
