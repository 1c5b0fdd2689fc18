package gemini

import (
	"net/http"
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// Wire is the Gemini API: POST <base>v1beta/models/{model}:generateContent,
// :streamGenerateContent?alt=sse and :countTokens, the key in
// x-goog-api-key or ?key=.
type Wire struct{}

var (
	_ wire.Wire   = Wire{}
	_ wire.Router = Wire{}
)

// Spec names the wire "gemini", its routes' prefix /v1beta/ (a Router's
// Path); Gemini's responseId and function call ids carry no prefix the
// API documents: the mock's are gen- and call-, then hex. The wait of a
// 429 is in its body (RetryInfo), never in retry-after.
func (Wire) Spec() wire.Spec {
	return wire.Spec{Name: "gemini", Path: "/v1beta/", AnswerTag: 'g', AnswerPrefix: "gen-", ToolPrefix: "call-", WaitInBody: true}
}

// Check refuses a request with no API key, as the real API does (403
// PERMISSION_DENIED): the key comes in x-goog-api-key, or as ?key= (the
// server passes the query's key as that header).
func (Wire) Check(h http.Header) *wire.Error {
	if strings.TrimSpace(h.Get("x-goog-api-key")) != "" || h.Get("Authorization") != "" {
		return nil
	}
	return &wire.Error{
		Status: http.StatusForbidden, Type: "PERMISSION_DENIED", Kind: wire.KindPermission,
		Message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
	}
}

// Headers sets what every Gemini answer carries: its content type is the
// server's; the API sends no rate-limit headers (the wait is in the body).
func (Wire) Headers(h http.Header, _ *wire.Reply) {}
