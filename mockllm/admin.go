package mockllm

import (
	"encoding/json"
	"net/http"
)

// adminPrefix is where the mock answers about itself rather than as a
// model; no scenario can be named so (scenario names start with a letter
// or a digit).
const adminPrefix = "/_faultbench/"

// The admin paths.
const (
	// JournalPath serves the journal as JSON: GET, optionally filtered
	// with ?scenario=NAME and ?session=NAME.
	JournalPath = adminPrefix + "journal"
	// ResetPath forgets every session and the journal: POST.
	ResetPath = adminPrefix + "reset"
)

// admin serves the journal and the reset.
func (s *Server) admin(w http.ResponseWriter, r *http.Request) {
	var allow string
	switch r.URL.Path {
	case JournalPath:
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			s.serveJournal(w, r)
			return
		}
		allow = http.MethodGet
	case ResetPath:
		if r.Method == http.MethodPost {
			s.Reset()
			w.Header()["Content-Type"] = jsonContentType
			_, _ = w.Write([]byte(`{"reset":true}` + "\n"))
			return
		}
		allow = http.MethodPost
	default:
		reject(w, r, notFound("Not found: "+r.URL.Path, anthropicWire), anthropicWire, s.rejectID(r.URL.Path))
		return
	}
	w.Header()["Allow"] = []string{allow}
	e := methodNotAllowed(r.Method)
	e.msg = "Method " + r.Method + " not allowed; use " + allow
	reject(w, r, e, anthropicWire, s.rejectID(r.URL.Path))
}

// serveJournal writes the journal, in the order requests were taken.
func (s *Server) serveJournal(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	scenario, session := q.Get("scenario"), q.Get("session")
	all := s.Journal()
	out := all[:0]
	for _, e := range all {
		if (scenario == "" || e.Scenario == scenario) && (session == "" || e.Session == session) {
			out = append(out, e)
		}
	}
	if out == nil {
		out = []Entry{}
	}
	w.Header()["Content-Type"] = jsonContentType
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
}
