package vertex

import (
	"net/http"
	"strings"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/anthropic"
)

// Wire is Vertex AI's rawPredict for Anthropic models: the anthropic wire
// (its decoder, rules and answers) behind Vertex's routes, auth and
// gateway errors.
type Wire struct{ anthropic.Wire }

var (
	_ wire.Wire   = Wire{}
	_ wire.Router = Wire{}
)

// Spec names the wire "vertex", its routes' prefix /v1/projects/ (a
// Router's Path: a stray path under it gets Google's 404); its answers
// are msg_vrtx_ and its tool calls toolu_vrtx_, as Vertex's are. Vertex
// sends no retry-after: a 429 says nothing of when to come back.
func (Wire) Spec() wire.Spec {
	return wire.Spec{Name: "vertex", Path: projects, AnswerTag: 'v', AnswerPrefix: "msg_vrtx_", ToolPrefix: "toolu_vrtx_", WaitInBody: true}
}

// Check refuses a request without an Authorization: Bearer token with
// Google's 401 UNAUTHENTICATED; any token is accepted. The
// anthropic-version header is not read: Vertex takes the version from
// the body.
func (Wire) Check(h http.Header) *wire.Error {
	scheme, token, _ := strings.Cut(strings.TrimSpace(h.Get("Authorization")), " ")
	if strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != "" {
		return nil
	}
	return google(http.StatusUnauthorized, "UNAUTHENTICATED", wire.KindAuth,
		"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. "+
			"See https://developers.google.com/identity/sign-in/web/devconsole-project.")
}

// Version is the anthropic_version Vertex's documentation names; the
// mock takes any string, as the SDKs send their own header's version.
const Version = "vertex-2023-10-16"

// Decode reads the body as the Messages API does, with the model the
// path named (a model in the body is not read), and refuses a body
// without a string anthropic_version, as Vertex does.
func (w Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	model, has := q.Model, q.HasModel
	if err := w.Wire.Decode(b, q); err != nil {
		return err
	}
	if has {
		q.Model = model
	}
	switch versionField(b) {
	case 0:
		return wire.InvalidRequest("anthropic_version: Field required")
	case 1:
		return wire.InvalidRequest("anthropic_version: Input should be a valid string")
	}
	return nil
}

// versionField is what the top level of a decoded body holds under
// anthropic_version: 0 nothing, 1 no string, 2 a string.
func versionField(b []byte) int {
	s := jsonscan.New(b)
	if s.Peek() != '{' {
		return 0
	}
	s.Enter()
	for s.More() {
		if string(s.Key()) != "anthropic_version" {
			s.Skip()
			continue
		}
		if _, ok := s.StringValue(); ok {
			return 2
		}
		return 1
	}
	return 0
}

// Headers sets nothing: Vertex passes on no request-id and no
// anthropic-ratelimit-* headers, and its 429 carries no retry-after.
func (Wire) Headers(http.Header, *wire.Reply) {}

// Body appends Google's error (errors.go), Anthropic's, or the message.
func (w Wire) Body(b []byte, r *wire.Reply) []byte {
	if r.Err != nil && isGoogle(r.Err) {
		return appendGoogle(b, r.Err)
	}
	return w.Wire.Body(b, r)
}

// CountBody is count-tokens:rawPredict's answer, the Messages API's
// {"input_tokens": N}.
func (Wire) CountBody(b []byte, n int) []byte {
	b = append(b, `{"input_tokens":`...)
	b = appendInt(b, n)
	return append(b, '}')
}
