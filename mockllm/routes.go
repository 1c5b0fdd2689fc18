package mockllm

import (
	"net/http"
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// modelsPath is the models listing of every wire: GET <base>v1/models.
const modelsPath = "/v1/models"

// strayScenario is the scenario a path the mock does not route names in
// its first segment, when the server serves one of that name ("" else):
// a client's request to /<scenario>/v1/files is journalled with the
// scenario whose base URL it was given.
func (s *Server) strayScenario(path string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if first != "" && s.lookup(first) != nil {
		return first
	}
	return ""
}

// wireOfRequest is the wire a request the mock does not route is
// answered in: the wire whose routes hold its path's segment after v1/,
// else OpenAI's when it is authorised as OpenAI's clients authorise
// (Authorization: Bearer, and neither x-api-key nor anthropic-version),
// else the first.
func (s *Server) wireOfRequest(r *http.Request) wire.Wire {
	wr := s.wireOfPath(r.URL.Path)
	if wr != s.wires[0] {
		return wr
	}
	h := r.Header
	if !strings.HasPrefix(h.Get("Authorization"), "Bearer ") || h.Get("X-Api-Key") != "" || h.Get("Anthropic-Version") != "" {
		return wr
	}
	for _, w := range s.wires {
		if w.Spec().Name == "openai" {
			return w
		}
	}
	return wr
}

// modelsRoute splits "/<scenario>/v1/models" into the scenario's name.
func modelsRoute(path string) (string, bool) {
	name, ok := strings.CutSuffix(path, modelsPath)
	if !ok || len(name) < 2 || name[0] != '/' || strings.Contains(name[1:], "/") {
		return "", false
	}
	return name[1:], true
}

// listModels answers GET <base>v1/models with the scenario's models, in
// the shape the request's wire lists them (wire.Lister; the first wire's
// when its own lists none). The request is journalled as a stray, with
// its route and method: it uses up no request number.
func (s *Server) listModels(w http.ResponseWriter, r *http.Request, sc *served, name, session string) {
	wr := s.wireOfRequest(r)
	lister, ok := wr.(wire.Lister)
	if !ok {
		wr = s.wires[0]
		lister, _ = wr.(wire.Lister)
	}
	id := s.rejectID(r.URL.Path)
	s.strays.add(record{seq: s.seq.Add(1), Entry: Entry{
		Scenario: clipStray(name), Session: clipStray(session), Route: clipStray(r.URL.Path), Method: r.Method,
		Status: http.StatusOK, Kind: kindOK, RequestID: id, Wire: wr.Spec().Name, RetryCount: retryCount(r.Header),
		Purpose: clipStray(header(r.Header, PurposeHeader, purposeTurn)),
	}})
	rp := reply{api: wr}
	rp.RequestID = id
	wr.Headers(w.Header(), &rp.Reply)
	w.Header().Set("Content-Type", "application/json")
	var body []byte
	if lister != nil {
		body = lister.Models(nil, sc.modelNames())
	}
	_, _ = w.Write(body)
}
