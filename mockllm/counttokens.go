package mockllm

import (
	"net/http"
	"strconv"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// countTokens answers POST /<scenario>/v1/messages/count_tokens as the real
// API does: {"input_tokens": N}, N by the token rule the mock charges a
// Messages request with (tool definitions included), for a body the
// Messages API would take but for max_tokens, which it does not need. A
// bad body is a 400 and an unknown model a 404, worded as for
// v1/messages. Counting is no attempt: it runs no script and takes no
// number in the session, and is journalled with its route.
func (s *Server) countTokens(w http.ResponseWriter, r *http.Request, api wire.Wire, sc *served, name, sessName string, rt wire.Route) {
	if r.Method != http.MethodPost {
		w.Header()["Allow"] = []string{http.MethodPost}
		s.stray(w, r, wire.MethodNotAllowed(r.Method), api, name, sessName)
		return
	}
	if e := api.Check(r.Header); e != nil {
		s.stray(w, r, e, api, name, sessName)
		return
	}
	in := incoming{req: wire.Request{CountOnly: true, Model: rt.Model, HasModel: rt.Model != ""}}
	q := &in.req
	if hr, ok := api.(wire.HeaderReader); ok {
		hr.ReadHeaders(r.Header, q)
	}
	if e := decodeBody(w, r, &in, api); e != nil {
		s.stray(w, r, e, api, name, sessName)
		return
	}
	if _, ok := sc.resolve(q.Model); !ok {
		s.stray(w, r, api.UnknownModel(clipEntry(q.Model), sc.modelNames()), api, name, sessName)
		return
	}
	id := s.rejectID(r.URL.Path)
	n := q.InputTokens()
	s.strays.add(record{seq: s.seq.Add(1), Entry: Entry{
		Scenario: name, Session: sessName, Route: r.URL.Path, Method: r.Method, Status: http.StatusOK, Kind: kindOK,
		Model: clipStray(q.Model), InputTokens: n, RequestID: id, Wire: api.Spec().Name,
		Purpose: clipStray(header(r.Header, PurposeHeader, purposeTurn)), RetryCount: retryCount(r.Header),
		Betas: wire.Betas(r.Header),
	}})
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Request-Id"] = []string{id}
	if rw, ok := api.(wire.Router); ok {
		_, _ = w.Write(rw.CountBody(nil, n))
		return
	}
	_, _ = w.Write([]byte(`{"input_tokens":` + strconv.Itoa(n) + "}"))
}
