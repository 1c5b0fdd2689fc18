package mockllm

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// adminPrefix is where the mock answers about itself rather than as a
// model; no scenario can be named so (scenario names start with a letter
// or a digit).
const adminPrefix = "/_faultbench/"

// The admin paths.
const (
	// JournalPath serves the journal as JSON: GET, optionally filtered
	// with ?scenario=NAME and ?session=NAME. Its DroppedHeader counts the
	// entries the sessions shown dropped to stay within the journal's
	// bounds.
	JournalPath = adminPrefix + "journal"
	// ResetPath forgets every session and the journal: POST.
	ResetPath = adminPrefix + "reset"
)

// DroppedHeader, on the journal's answer, is how many entries the
// sessions shown have dropped, oldest first: a session keeps at most
// 100,000 entries, and a server 200,000 across its sessions.
const DroppedHeader = "X-Faultbench-Journal-Dropped"

// admin serves the journal, the reset and the scenarios declared in code.
func (s *Server) admin(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == ScenariosPath || strings.HasPrefix(r.URL.Path, ScenariosPath+"/") {
		s.serveScenarios(w, r) // adminscenario.go
		return
	}
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
		e := &wire.Error{Status: http.StatusNotFound, Type: "not_found_error", Message: "Not found: " + r.URL.Path, Kind: wire.KindNotFound}
		reject(w, r, e, s.wires[0], s.rejectID(r.URL.Path))
		return
	}
	w.Header()["Allow"] = []string{allow}
	e := wire.MethodNotAllowed(r.Method)
	e.Message = "Method " + r.Method + " not allowed; use " + allow
	reject(w, r, e, s.wires[0], s.rejectID(r.URL.Path))
}

// serveJournal writes the journal, in the order requests were taken,
// one entry at a time: the answer is never built whole in memory. The
// DroppedHeader says how many entries the sessions shown have dropped to
// stay within the journal's bounds.
func (s *Server) serveJournal(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	scName, sessName := q.Get("scenario"), q.Get("session")
	s.mu.RLock()
	var picked []*session
	for k, sess := range s.sessions {
		if (scName == "" || k.scenario == scName) && (sessName == "" || k.session == sessName) {
			picked = append(picked, sess)
		}
	}
	s.mu.RUnlock()
	var recs []record
	dropped := 0
	for _, sess := range picked {
		recs = sess.appendRecords(recs)
		dropped += sess.droppedEntries()
	}
	// Requests that reached no session are journalled apart (strays.go).
	for _, rec := range s.strays.appendTo(nil) {
		if (scName == "" || rec.Scenario == scName) && (sessName == "" || rec.Session == sessName) {
			recs = append(recs, rec)
		}
	}
	sortRecords(recs)
	w.Header()["Content-Type"] = jsonContentType
	w.Header()[DroppedHeader] = []string{strconv.Itoa(dropped)}
	_ = writeEntries(w, recs)
}

// writeEntries writes records as an indented JSON array of entries, the
// bytes json.Encoder with SetIndent("", "  ") writes for the whole slice,
// encoding one entry at a time.
func writeEntries(w io.Writer, recs []record) error {
	if len(recs) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	_, _ = bw.WriteString("[\n")
	for i := range recs {
		b, err := json.MarshalIndent(&recs[i].Entry, "  ", "  ")
		if err != nil {
			return err
		}
		if i > 0 {
			_, _ = bw.WriteString(",\n")
		}
		_, _ = bw.WriteString("  ")
		if _, err := bw.Write(b); err != nil {
			return err // the client has gone
		}
	}
	_, _ = bw.WriteString("\n]\n")
	return bw.Flush()
}
