package openrouter

import (
	"net/http"
	"strings"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/chat"
)

// Wire is OpenRouter's Chat Completions: the chat wire behind
// OpenRouter's route, auth, routing fields and errors.
type Wire struct{ chat.Wire }

var (
	_ wire.Wire   = Wire{}
	_ wire.Router = Wire{}
)

// The route under a scenario's base URL.
const (
	prefix   = "/api/v1/"
	chatPath = prefix + "chat/completions"
)

// Spec names the wire "openrouter", its routes' prefix /api/v1/ (a
// Router's Path: a stray path under it gets OpenRouter's 404); its
// answers are gen- (OpenRouter's generation ids) and its tool calls
// call_.
func (Wire) Spec() wire.Spec {
	return wire.Spec{Name: "openrouter", Path: prefix, AnswerTag: 'r', AnswerPrefix: "gen-", ToolPrefix: "call_"}
}

// Route splits /<scenario>/api/v1/chat/completions into the scenario's
// name; the body names the model.
func (Wire) Route(path, _ string) (string, wire.Route, bool) {
	name, ok := strings.CutSuffix(path, chatPath)
	if !ok || len(name) < 2 || name[0] != '/' || strings.Contains(name[1:], "/") {
		return "", wire.Route{}, false
	}
	return name[1:], wire.Route{}, true
}

// CountBody is never asked for: OpenRouter's chat route counts nothing.
func (Wire) CountBody(b []byte, _ int) []byte { return b }

// Check refuses a request without Authorization: Bearer with
// OpenRouter's 401; any key is taken.
func (Wire) Check(h http.Header) *wire.Error {
	scheme, token, _ := strings.Cut(strings.TrimSpace(h.Get("Authorization")), " ")
	if strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != "" {
		return nil
	}
	return routerError(http.StatusUnauthorized, wire.KindAuth, "No auth credentials found", "")
}

// maxModels bounds the models fallback list, as OpenRouter does.
const maxModels = 3

// Decode reads the body as the chat wire does, then holds OpenRouter's
// routing fields to their types: models a list of at most maxModels
// strings, provider an object.
func (w Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	if err := w.Wire.Decode(b, q); err != nil {
		return err
	}
	if msg := routing(b); msg != "" {
		*q = wire.Request{}
		return routerError(http.StatusBadRequest, wire.KindInvalidRequest, msg, "")
	}
	return nil
}

// routing is what is wrong with a decoded body's routing fields, "" when
// nothing is.
func routing(b []byte) string {
	s := jsonscan.New(b)
	if s.Peek() != '{' {
		return ""
	}
	s.Enter()
	for s.More() {
		switch string(s.Key()) {
		case "models":
			if s.IsNull() {
				s.Skip()
				continue
			}
			if s.Peek() != '[' {
				s.Skip()
				return "models: Expected array"
			}
			s.Enter()
			n := 0
			for s.More() {
				n++
				if _, ok := s.StringValue(); !ok {
					return "models: Expected string"
				}
			}
			if n > maxModels {
				return "models: Array must contain at most 3 element(s)"
			}
		case "provider":
			if s.Peek() != '{' && !s.IsNull() {
				s.Skip()
				return "provider: Expected object"
			}
			s.Skip()
		default:
			s.Skip()
		}
	}
	return ""
}

// Headers sets what OpenRouter's answers carry: none of OpenAI's request
// or rate-limit headers; the server adds a rule's retry-after.
func (Wire) Headers(http.Header, *wire.Reply) {}

// Body appends OpenRouter's error (errors.go) or the chat.completion.
func (w Wire) Body(b []byte, r *wire.Reply) []byte {
	if r.Err != nil {
		return appendError(b, r.Err)
	}
	return w.Wire.Body(b, r)
}

// Failed appends the chunk a stream ends with on an error: the error
// beside a choice whose finish_reason is "error".
func (Wire) Failed(ev *wire.Events, r *wire.Reply, e *wire.Error) {
	b := append(ev.Begin(""), `{"id":`...)
	b = jsonscan.AppendString(b, r.Ans.ID)
	b = append(b, `,"object":"chat.completion.chunk","created":0,"model":`...)
	b = jsonscan.AppendString(b, r.Ans.Model)
	b = append(b, `,"provider":"Anthropic","error":`...)
	b = appendBody(b, e)
	ev.End(append(b, `,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"error","native_finish_reason":"error"}]}`...))
}
