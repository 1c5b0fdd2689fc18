package mockllm

import (
	"net/http"
	"strconv"
	"strings"
)

// countTokensPath is Anthropic's token counting endpoint, under a
// scenario's base URL.
const countTokensPath = "/v1/messages/count_tokens"

// countTokens answers POST /<scenario>/v1/messages/count_tokens as the real
// API does: {"input_tokens": N}, N by the token rule the mock charges a
// Messages request with (tool definitions included), for a body the
// Messages API would take but for max_tokens, which it does not need. A
// bad body is a 400 and an unknown model a 404, worded as for
// v1/messages. Counting is no attempt: it runs no script and takes no
// number in the session, and is journalled with its route.
func (s *Server) countTokens(w http.ResponseWriter, r *http.Request, sc *served, name, sessName string) {
	if r.Method != http.MethodPost {
		w.Header()["Allow"] = []string{http.MethodPost}
		s.stray(w, r, methodNotAllowed(r.Method), anthropicWire, name, sessName)
		return
	}
	if e := checkVersion(r.Header); e != nil {
		s.stray(w, r, e, anthropicWire, name, sessName)
		return
	}
	q := request{countOnly: true}
	if e := decodeBody(w, r, &q, anthropicWire); e != nil {
		s.stray(w, r, e, anthropicWire, name, sessName)
		return
	}
	if _, ok := sc.resolve(q.model); !ok {
		s.stray(w, r, unknownModel(anthropicWire, q.model, sc.modelNames()), anthropicWire, name, sessName)
		return
	}
	id := s.rejectID(r.URL.Path)
	n := q.inputTokens()
	s.strays.add(record{seq: s.seq.Add(1), Entry: Entry{
		Scenario: name, Session: sessName, Route: r.URL.Path, Status: http.StatusOK, Kind: kindOK,
		Model: clipStray(q.model), InputTokens: n, RequestID: id, Wire: anthropicWire.String(),
		Purpose: clipStray(header(r.Header, PurposeHeader, purposeTurn)), RetryCount: retryCount(r.Header),
	}})
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Request-Id"] = []string{id}
	_, _ = w.Write([]byte(`{"input_tokens":` + strconv.Itoa(n) + "}"))
}

// countTokensRoute splits "/<scenario>/v1/messages/count_tokens" into the
// scenario's name.
func countTokensRoute(path string) (string, bool) {
	name, ok := strings.CutSuffix(path, countTokensPath)
	if !ok || len(name) < 2 || name[0] != '/' {
		return "", false
	}
	return name[1:], true
}
