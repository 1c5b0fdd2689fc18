package mockllm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/faultbench/faultbench/internal/excerpt"
	"github.com/faultbench/faultbench/scenario"
)

// ScenariosPath is where a test declares a scenario in code: POST the
// scenario, as YAML or JSON (a file's text), to serve it under its name;
// DELETE ScenariosPath/NAME to stop serving it. A scenario posted is
// checked exactly as a file is, and its problems are answered as a file's
// would be, without a file name: "LINE:COL: FIELD: REASON".
const ScenariosPath = adminPrefix + "scenarios"

// MaxScenarioBytes is the largest scenario body the admin route reads:
// 256 KiB, a sixth of a file's ceiling (yamlfile.MaxBytes), as the parser
// costs about 400 bytes of memory a byte; a larger one is a 413. A test's
// scenario is a few hundred bytes.
const MaxScenarioBytes = 256 << 10

// Added is the admin route's answer to a scenario it serves: its name,
// the session the test's client is given, and the base URLs of that
// session on every wire.
type Added struct {
	Name    string `json:"name"`
	Session string `json:"session"`
	// BasePath is the session's base path on the server,
	// /<scenario>/s/<session>/.
	BasePath string `json:"base_path"`
	// AnthropicBaseURL is the Anthropic SDKs' base URL: they post to
	// v1/messages under it.
	AnthropicBaseURL string `json:"anthropic_base_url"`
	// OpenAIBaseURL is the OpenAI SDKs' base URL (BasePath + v1/): Chat
	// Completions and the Responses API.
	OpenAIBaseURL string `json:"openai_base_url"`
	// GeminiBaseURL is the Gemini SDKs' base URL (httpOptions.baseUrl).
	GeminiBaseURL string `json:"gemini_base_url"`
	// JournalURL is the session's journal.
	JournalURL string `json:"journal_url"`
}

// Problem is one problem of a scenario refused by the admin route: where
// (0 when unknown), the field at fault and why.
type Problem struct {
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Field  string `json:"field,omitempty"`
	Reason string `json:"reason"`
}

// defaultAddedSession is the session the admin route gives an added
// scenario when the request names none.
const defaultAddedSession = "test"

// maxSessionParam bounds the ?session= of a POST: a path segment's
// characters, at most this many bytes.
const maxSessionParam = 64

// serveScenarios serves POST ScenariosPath and DELETE ScenariosPath/NAME.
func (s *Server) serveScenarios(w http.ResponseWriter, r *http.Request) {
	if name, ok := strings.CutPrefix(r.URL.Path, ScenariosPath+"/"); ok {
		if r.Method != http.MethodDelete {
			notAllowed(w, http.MethodDelete, r.Method)
			return
		}
		s.removeScenario(w, name)
		return
	}
	if r.Method != http.MethodPost {
		notAllowed(w, http.MethodPost, r.Method)
		return
	}
	session := r.URL.Query().Get("session")
	if session == "" {
		session = defaultAddedSession
	}
	if !segment(session, maxSessionParam) {
		adminError(w, http.StatusBadRequest, fmt.Sprintf("?session=%s: use at most %d letters, digits, '.', '_' and '-'", excerpt.Quote(session, 40), maxSessionParam), nil)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxScenarioBytes+1))
	if err != nil {
		adminError(w, http.StatusBadRequest, "scenario: the body could not be read: "+err.Error(), nil)
		return
	}
	if len(body) > MaxScenarioBytes {
		w.Header().Set("Connection", "close") // the rest goes unread
		adminError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("scenario: over %d bytes, the ceiling of a scenario posted", MaxScenarioBytes), nil)
		return
	}
	select {
	case s.parsing <- struct{}{}:
	case <-r.Context().Done():
		return // the client has gone
	}
	sc, err := scenario.Parse("", body)
	<-s.parsing
	if err != nil {
		adminError(w, http.StatusBadRequest, err.Error(), problems(err))
		return
	}
	if err := s.Add(sc); err != nil {
		status := http.StatusConflict
		if !errors.Is(err, ErrServed) && !errors.Is(err, ErrTooMany) {
			status = http.StatusBadRequest
		}
		adminError(w, status, strings.TrimPrefix(err.Error(), "mockllm: "), nil)
		return
	}
	origin := "http://" + r.Host
	base := "/" + sc.Name + "/" + SessionSegment + "/" + url.PathEscape(session) + "/"
	a := Added{
		Name: sc.Name, Session: session, BasePath: base,
		AnthropicBaseURL: origin + base, OpenAIBaseURL: origin + base + "v1/", GeminiBaseURL: origin + base,
		JournalURL: origin + JournalPath + "?scenario=" + url.QueryEscape(sc.Name) + "&session=" + url.QueryEscape(session),
	}
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(http.StatusCreated)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // the journal URL's & as it is
	enc.SetIndent("", "  ")
	_ = enc.Encode(a)
}

// removeScenario stops serving a scenario added over the admin route (or
// by Add).
func (s *Server) removeScenario(w http.ResponseWriter, name string) {
	if s.Remove(name) {
		w.Header()["Content-Type"] = jsonContentType
		b, _ := json.Marshal(map[string]string{"removed": name})
		_, _ = w.Write(append(b, '\n'))
		return
	}
	if s.lookup(name) != nil {
		adminError(w, http.StatusConflict, fmt.Sprintf("scenario %s was served from the start: only an added one can be removed", excerpt.Quote(name, 40)), nil)
		return
	}
	adminError(w, http.StatusNotFound, fmt.Sprintf("no added scenario %s", excerpt.Quote(name, 40)), nil)
}

// problems lists a refused scenario's problems, each with its place.
func problems(err error) []Problem {
	var out []Problem
	for _, e := range scenario.Errors(err) {
		out = append(out, Problem{Line: e.Line, Column: e.Column, Field: e.Field, Reason: e.Msg})
	}
	return out
}

// adminError answers an admin request with an error in the Messages API's
// envelope, its problems beside the message.
func adminError(w http.ResponseWriter, status int, msg string, ps []Problem) {
	type body struct {
		Type     string    `json:"type"`
		Message  string    `json:"message"`
		Problems []Problem `json:"problems,omitempty"`
	}
	typ := "invalid_request_error"
	switch status {
	case http.StatusNotFound:
		typ = "not_found_error"
	case http.StatusRequestEntityTooLarge:
		typ = "request_too_large"
	case http.StatusMethodNotAllowed:
		typ = "method_not_allowed"
	}
	b, _ := json.MarshalIndent(struct {
		Type  string `json:"type"`
		Error body   `json:"error"`
	}{"error", body{typ, msg, ps}}, "", "  ")
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// notAllowed is the 405 of an admin route to a method it does not take.
func notAllowed(w http.ResponseWriter, allow, method string) {
	w.Header()["Allow"] = []string{allow}
	adminError(w, http.StatusMethodNotAllowed, "Method "+excerpt.Clip(method, 20)+" not allowed; use "+allow, nil)
}

// segment reports whether s is 1 to n bytes of letters, digits, '.', '_'
// and '-': a path segment that needs no escaping.
func segment(s string, n int) bool {
	if s == "" || len(s) > n {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
