package mockllm

import (
	"net/http"
	"strings"
	"sync"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// maxStrays bounds the journal of requests that reached no session: the
// latest 1,000 are kept.
const maxStrays = 1000

// strays journals the requests that reached no scenario's session (an
// unknown scenario or route, a session name too long, a session past the
// server's bound), in a ring of the latest maxStrays.
type strays struct {
	mu   sync.Mutex
	ring []record
	next int
}

func (st *strays) add(r record) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.ring) < maxStrays {
		st.ring = append(st.ring, r)
		return
	}
	st.ring[st.next] = r
	st.next = (st.next + 1) % maxStrays
}

func (st *strays) appendTo(dst []record) []record {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append(dst, st.ring...)
}

func (st *strays) reset() {
	st.mu.Lock()
	st.ring, st.next = nil, 0
	st.mu.Unlock()
}

// clipStray keeps at most maxEntryString bytes of a stray request's
// string, in a copy of its own: a short path may still be a slice of the
// request line, which a long query would make hundreds of kilobytes.
func clipStray(s string) string { return strings.Clone(clipEntry(s)) }

// stray answers a request that reaches no session, and journals it with
// its route and the status it got.
func (s *Server) stray(w http.ResponseWriter, r *http.Request, e *wire.Error, api wire.Wire, scenario, session string) {
	id := s.rejectID(r.URL.Path)
	s.strays.add(record{seq: s.seq.Add(1), Entry: Entry{
		Scenario: clipStray(scenario), Session: clipStray(session), Route: clipStray(r.URL.Path), Method: clipStray(r.Method),
		Status: e.Status, Kind: e.Kind, ErrorType: e.Type, ErrorMessage: clipStray(e.Message),
		RequestID: id, Wire: api.Spec().Name, RetryCount: retryCount(r.Header), Purpose: clipStray(header(r.Header, PurposeHeader, purposeTurn)),
		Betas: wire.Betas(r.Header),
	}})
	hangUpUnread(w, r)
	reject(w, r, e, api, id)
}
