package gemini

import (
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// finishReason is Gemini's word for a stop reason: a tool call stops with
// STOP too.
func finishReason(stop string) string {
	switch stop {
	case "max_tokens":
		return "MAX_TOKENS"
	case "refusal":
		return "SAFETY"
	}
	return "STOP"
}

// appendResponse appends a GenerateContentResponse with the candidate
// whose parts are parts (already JSON, without brackets), a finishReason
// when finish is set, and usageMetadata when usage is set.
func appendResponse(b []byte, a *wire.Answer, parts func([]byte) []byte, finish, usage bool) []byte {
	b = append(b, `{"candidates":[{"content":{"parts":[`...)
	b = parts(b)
	b = append(b, `],"role":"model"}`...)
	if finish {
		b = append(b, `,"finishReason":`...)
		b = jsonscan.AppendString(b, finishReason(a.Stop))
	}
	b = append(b, `,"index":0}]`...)
	if usage {
		b = append(b, `,"usageMetadata":`...)
		b = appendUsage(b, a)
	}
	b = append(b, `,"modelVersion":`...)
	b = jsonscan.AppendString(b, a.Model)
	b = append(b, `,"responseId":`...)
	b = jsonscan.AppendString(b, a.ID)
	return append(b, '}')
}

func appendUsage(b []byte, a *wire.Answer) []byte {
	b = append(b, `{"promptTokenCount":`...)
	b = strconv.AppendInt(b, int64(a.Input), 10)
	b = append(b, `,"candidatesTokenCount":`...)
	b = strconv.AppendInt(b, int64(a.Output), 10)
	if a.CacheRead > 0 {
		// The part of the prompt read from the cache, as Gemini reports it.
		b = append(b, `,"cachedContentTokenCount":`...)
		b = strconv.AppendInt(b, int64(a.CacheRead), 10)
	}
	b = append(b, `,"totalTokenCount":`...)
	b = strconv.AppendInt(b, int64(a.Input+a.Output), 10)
	b = append(b, `,"promptTokensDetails":[{"modality":"TEXT","tokenCount":`...)
	b = strconv.AppendInt(b, int64(a.Input), 10)
	return append(b, `}]}`...)
}

func appendText(b []byte, s string) []byte {
	b = append(b, `{"text":`...)
	b = jsonscan.AppendString(b, s)
	return append(b, '}')
}

// appendCall appends a functionCall part; args is the call's JSON object.
func appendCall(b []byte, t *wire.ToolCall) []byte {
	b = append(b, `{"functionCall":{"id":`...)
	b = jsonscan.AppendString(b, t.ID)
	b = append(b, `,"name":`...)
	b = jsonscan.AppendString(b, t.Name)
	b = append(b, `,"args":`...)
	args := t.Input
	if args == "" {
		args = "{}"
	}
	b = append(b, args...)
	return append(b, `}}`...)
}

// allParts appends the answer's text, then its calls.
func allParts(a *wire.Answer) func([]byte) []byte {
	return func(b []byte) []byte {
		n := 0
		if a.HasText() {
			b = appendText(b, a.Text)
			n++
		}
		for i := range a.Tools {
			if n > 0 {
				b = append(b, ',')
			}
			b = appendCall(b, &a.Tools[i])
			n++
		}
		return b
	}
}

// Body appends the error envelope or the GenerateContentResponse.
func (Wire) Body(b []byte, r *wire.Reply) []byte {
	if r.Err != nil {
		return appendError(b, r.Err)
	}
	return appendResponse(b, &r.Ans, allParts(&r.Ans), true, true)
}

// Stream appends the frames of streamGenerateContent?alt=sse as the API
// sends them: each a whole GenerateContentResponse (data: only, no event
// names), the text in pieces, each call whole in its own frame, the last
// frame with the finishReason and the usageMetadata; no [DONE]. Without
// alt=sse (r.Array) the same responses are the elements of one JSON
// array, as the API streams it: "[", the responses apart by ",\r\n",
// then "]".
func (Wire) Stream(ev *wire.Events, r *wire.Reply) {
	a := &r.Ans
	// Count the frames first: a list of the pieces would grow with the
	// answer.
	texts := 0
	if a.HasText() {
		wire.Chunks(a.Text, func(string) { texts++ })
	}
	frames := texts + len(a.Tools)
	k := 0
	frame := func(p string) {
		k++
		last := k == frames
		b := appendResponse(begin(ev, r), a, func(b []byte) []byte { return appendText(b, p) }, last, last)
		ev.Carry(len(p))
		end(ev, r, b, last)
	}
	if frames == 0 {
		frames = 1
		frame("")
	} else if a.HasText() {
		wire.Chunks(a.Text, frame)
	}
	for i := range a.Tools {
		k++
		last := k == frames
		t := &a.Tools[i]
		b := appendResponse(begin(ev, r), a, func(b []byte) []byte { return appendCall(b, t) }, last, last)
		ev.Carry(len(t.Input))
		end(ev, r, b, last)
	}
}

// begin starts a frame: a server-sent event's data, or the array's next
// element.
func begin(ev *wire.Events, r *wire.Reply) []byte {
	if !r.Array {
		return ev.Begin("")
	}
	if ev.Len() == 0 {
		return append(ev.BeginRaw(), '[')
	}
	return append(ev.BeginRaw(), ",\r\n"...)
}

// end closes a frame begun with begin; the last closes the array.
func end(ev *wire.Events, r *wire.Reply, b []byte, last bool) {
	if !r.Array {
		ev.End(b)
		return
	}
	if last {
		b = append(b, ']')
	}
	ev.EndRaw(b)
}

// Broken appends a frame whose JSON is cut short.
func (Wire) Broken(ev *wire.Events, r *wire.Reply) {
	b := begin(ev, r)
	end(ev, r, append(b, `{"candidates":[{"content":{"parts":[{"text":"`...), false)
}

// Failed appends the error envelope as a data frame (the array's last
// element), as the API ends a stream that fails after it began.
func (Wire) Failed(ev *wire.Events, r *wire.Reply, e *wire.Error) {
	end(ev, r, appendError(begin(ev, r), e), true)
}

// StopReason is the finishReason.
func (Wire) StopReason(a *wire.Answer) string { return finishReason(a.Stop) }
