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
// frame with the finishReason and the usageMetadata; no [DONE].
func (Wire) Stream(ev *wire.Events, r *wire.Reply) {
	a := &r.Ans
	var pieces []string
	if a.HasText() {
		wire.Chunks(a.Text, func(p string) { pieces = append(pieces, p) })
	}
	frames := len(pieces) + len(a.Tools)
	if frames == 0 {
		pieces, frames = []string{""}, 1
	}
	k := 0
	for _, p := range pieces {
		k++
		last := k == frames
		b := appendResponse(ev.Begin(""), a, func(b []byte) []byte { return appendText(b, p) }, last, last)
		ev.Carry(len(p))
		ev.End(b)
	}
	for i := range a.Tools {
		k++
		last := k == frames
		t := &a.Tools[i]
		b := appendResponse(ev.Begin(""), a, func(b []byte) []byte { return appendCall(b, t) }, last, last)
		ev.Carry(len(t.Input))
		ev.End(b)
	}
}

// Broken appends a frame whose JSON is cut short.
func (Wire) Broken(ev *wire.Events, r *wire.Reply) {
	b := ev.Begin("")
	ev.End(append(b, `{"candidates":[{"content":{"parts":[{"text":"`...))
}

// Failed appends the error envelope as a data frame, as the API ends a
// stream that fails after it began.
func (Wire) Failed(ev *wire.Events, _ *wire.Reply, e *wire.Error) {
	ev.End(appendError(ev.Begin(""), e))
}

// StopReason is the finishReason.
func (Wire) StopReason(a *wire.Answer) string { return finishReason(a.Stop) }
