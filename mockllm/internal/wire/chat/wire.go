package chat

import (
	"encoding/json"
	"fmt"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openai"
	"github.com/faultbench/faultbench/scenario"
)

// Wire is OpenAI's Chat Completions: POST <base>v1/chat/completions.
type Wire struct{ openai.Base }

var _ wire.Wire = Wire{}

// Routes are the first path segments after v1/ of OpenAI's API: a path
// the mock does not serve under one of them gets OpenAI's 404.
var Routes = []string{
	"chat", "responses", "completions", "embeddings", "moderations", "images", "audio", "files", "uploads",
	"assistants", "threads", "vector_stores", "fine_tuning", "realtime", "conversations", "containers", "evals",
}

// Spec names the wire "openai"; its answers are chatcmpl- and its tool
// calls call_.
func (Wire) Spec() wire.Spec {
	return wire.Spec{Name: "openai", Path: "/v1/chat/completions", Routes: Routes, AnswerTag: 'c', AnswerPrefix: "chatcmpl-", ToolPrefix: "call_", CacheAuto: true}
}

// Decode reads a chat completion request in one pass, then holds its
// messages to Chat Completions' rules (check.go).
func (Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	s := wire.NewScanner(b)
	s.UseMemo(q)
	err := walk(q, s)
	if (err != nil || !s.End()) && !json.Valid(b) {
		*q = wire.Request{} // a body that could not be decoded tells the journal nothing
		return openai.Unparsable()
	}
	if err != nil {
		*q = wire.Request{}
		return err
	}
	s.Learnt(q)
	if err := validate(q); err != nil {
		return err
	}
	q.Cache.Resolve()
	return check(b, q)
}

// Limits words a model's limits as Chat Completions does: an output budget
// above max_output; the input alone over the window; input plus the
// budget over it. A request without max_tokens asks for no output budget.
func (Wire) Limits(_ string, m scenario.Model, q *wire.Request) *wire.Error {
	if err := openai.MaxOutput(m, q); err != nil {
		return err
	}
	input, maxTokens := q.InputTokens(), q.MaxTokens
	switch {
	case m.ContextWindow <= 0:
		return nil
	case input > m.ContextWindow:
		return openai.Overflow(fmt.Sprintf(
			"This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. "+
				"Please reduce the length of the messages.", m.ContextWindow, input))
	case input+maxTokens > m.ContextWindow:
		return openai.Overflow(fmt.Sprintf(
			"This model's maximum context length is %d tokens. However, you requested %d tokens "+
				"(%d in the messages, %d in the completion). Please reduce the length of the messages or completion.",
			m.ContextWindow, input+maxTokens, input, maxTokens))
	}
	return nil
}

// StopReason is the finish_reason.
func (Wire) StopReason(a *wire.Answer) string { return finishReason(a.Stop) }

// Body appends the error object or the chat.completion.
func (Wire) Body(b []byte, r *wire.Reply) []byte {
	if r.Err != nil {
		return openai.AppendError(b, r.Err)
	}
	return appendCompletion(b, &r.Ans, r.Created, r.Echo.RawOf("service_tier"))
}

// Broken appends a chunk cut short.
func (Wire) Broken(ev *wire.Events, r *wire.Reply) {
	b := ev.Begin("")
	b = append(b, `{"id":`...)
	b = jsonscan.AppendString(b, r.Ans.ID)
	ev.End(append(b, `,"object":"chat.completion.chu`...))
}

// Failed appends the error object as a data event.
func (Wire) Failed(ev *wire.Events, _ *wire.Reply, e *wire.Error) {
	ev.End(openai.AppendError(ev.Begin(""), e))
}
