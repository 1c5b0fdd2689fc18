package mockllm

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// Clock tells the mock the time. The mock reads the wall clock only
// through RealClock: the harness hands it a virtual clock, `faultbench
// serve` and a Go test of your own agent the real one.
type Clock interface{ Now() time.Time }

// RealClock is the wall clock, for a mock that serves a real client in
// real time (New's clock when none is given).
type RealClock struct{}

// Now returns the wall-clock time.
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d of wall time, or until ctx ends, whichever comes first: a
// scripted delay or dribble takes the time it says.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	return clock.Real{}.Sleep(ctx, d)
}

// The headers a client sends to steer the mock.
const (
	// SessionHeader names the session a request belongs to; each session
	// has its own script state and start. Absent means "default".
	SessionHeader = "X-Faultbench-Session"
	// PurposeHeader says why a request is sent: "turn" (the default) or
	// "repair" (a summarisation for compaction). Attempts are counted per
	// purpose, and a rule's when.purpose matches it.
	PurposeHeader = "X-Faultbench-Purpose"
)

const (
	defaultSession = "default"
	// maxSessions bounds the sessions a server keeps, so that a client
	// inventing session names cannot exhaust its memory; past it, a new
	// session is refused until /_faultbench/reset.
	maxSessions = 10000
	// maxSessionName bounds the X-Faultbench-Session header.
	maxSessionName = 200
)

// Server is the mock LLM: an http.Handler serving, for each scenario, each
// of its wires (wires.go) at its route — the Anthropic Messages API at
// /<scenario>/v1/messages, OpenAI's Chat Completions at
// /<scenario>/v1/chat/completions and Responses API at
// /<scenario>/v1/responses — and its journal at /_faultbench/journal. It is safe for concurrent use by many sessions at
// once.
type Server struct {
	clock   Clock
	seq     atomic.Uint64 // orders journal entries across sessions
	entries entryBudget   // the journal entries all sessions keep
	// resets counts Reset calls, and rejects the requests answered outside
	// any session: both go into request IDs, so that no ID repeats in the
	// server's lifetime.
	resets, rejects atomic.Uint64
	strays          strays // the journal of requests that reached no session

	mu       sync.RWMutex // guards the map only; each session locks its own state
	sessions map[sessionKey]*session

	aliases map[string]string // model aliases of every scenario (WithAliases); read-only
	// fallback is the scenario of the paths that name none
	// (WithDefaultScenario); read-only.
	fallback string
	wires    []wire.Wire // the APIs it speaks (wires.go); read-only

	// scenarios holds every scenario served, those of New and those of
	// Add (add.go) alike, under scMu; added names the ones of Add, which
	// Remove may take away.
	scMu      sync.RWMutex
	scenarios map[string]*served
	added     map[string]bool
	// parsing is held by the one admin request whose scenario is being
	// parsed (adminscenario.go), so that the parser's memory is that of
	// one body whatever the number of clients posting.
	parsing chan struct{}
}

var _ http.Handler = (*Server)(nil)

type sessionKey struct{ scenario, session string }

// New serves the given scenarios, keyed by Scenario.Name (a later scenario
// with a name already given replaces the earlier one; nil ones are
// skipped). clock is the clock of the sessions not opened with Open: serve
// mode hands the real clock, tests a virtual one; nil means the wall
// clock (RealClock). Options apply in order.
func New(scenarios []*scenario.Scenario, clock Clock, opts ...Option) *Server {
	if clock == nil {
		clock = RealClock{}
	}
	s := &Server{
		clock:     clock,
		scenarios: make(map[string]*served, len(scenarios)),
		added:     make(map[string]bool),
		parsing:   make(chan struct{}, 1),
		sessions:  make(map[sessionKey]*session),
		wires:     wires(),
	}
	s.entries.max = maxJournalEntries
	for _, sc := range scenarios {
		if sc != nil {
			s.scenarios[sc.Name] = newServed(sc)
		}
	}
	for _, o := range opts {
		o(s)
	}
	for _, sv := range s.scenarios {
		sv.global = s.aliases
	}
	return s
}

// Open registers session `session` of scenario `name` with its own clock
// (nil means the server's); the session's start is clock.Now() at Open.
// It is an error if the scenario is unknown or the session exists.
func (s *Server) Open(name, session string, clock Clock) error {
	sc := s.lookup(name)
	if sc == nil {
		return fmt.Errorf("mockllm: open session %q: unknown scenario %q", session, name)
	}
	if clock == nil {
		clock = s.clock
	}
	sess := newSession(sc, session, clock, &s.seq, &s.entries)
	sess.gen = s.resets.Load()
	sess.start, sess.started = clock.Now(), true
	sess.mem.On = true            // internal/wire/memo.go
	sess.quota = newQuotas(sc.sc) // buckets live on the session's clock
	key := sessionKey{name, session}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, exists := s.sessions[key]; exists {
		return fmt.Errorf("mockllm: open session %q of scenario %q: it is already open", session, name)
	}
	s.sessions[key] = sess
	return nil
}

// Entries returns one session's journal in request order (N = 1, 2, ...),
// or nil for a session the server does not have. The slice is a copy, safe
// to keep.
func (s *Server) Entries(name, session string) []Entry {
	s.mu.RLock()
	sess := s.sessions[sessionKey{name, session}]
	s.mu.RUnlock()
	if sess == nil {
		return nil
	}
	return sess.entries()
}

// Journal returns every entry of the sessions the server holds, in the
// order they were recorded. A closed session's entries are gone with it.
func (s *Server) Journal() []Entry {
	s.mu.RLock()
	all := make([]*session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		all = append(all, sess)
	}
	s.mu.RUnlock()
	recs := s.strays.appendTo(nil)
	for _, sess := range all {
		recs = sess.appendRecords(recs)
	}
	return mergeJournal(recs)
}

// CloseSession forgets one session, its script state and its journal (the
// harness calls it after a run so memory stays flat). A later request to
// that session starts a new one.
func (s *Server) CloseSession(name, session string) {
	key := sessionKey{name, session}
	s.mu.Lock()
	sess := s.sessions[key]
	delete(s.sessions, key)
	s.mu.Unlock()
	if sess != nil {
		sess.release()
	}
}

// Reset forgets every session and so the whole journal, and refills every
// scenario's rate-limit buckets: those of New and of Add alike.
func (s *Server) Reset() {
	s.mu.Lock()
	old := s.sessions
	s.sessions = make(map[sessionKey]*session)
	s.resets.Add(1)
	s.mu.Unlock()
	for _, sess := range old {
		sess.release()
	}
	s.strays.reset()
	s.scMu.RLock()
	defer s.scMu.RUnlock()
	for _, sc := range s.scenarios {
		sc.quota.reset()
	}
}

// Dropped is how many journal entries one session has dropped, oldest
// first, to stay within the journal's bounds (see doc.go); 0 for a session
// the server does not have.
func (s *Server) Dropped(name, session string) int {
	s.mu.RLock()
	sess := s.sessions[sessionKey{name, session}]
	s.mu.RUnlock()
	if sess == nil {
		return 0
	}
	return sess.droppedEntries()
}

// rejectID is the request ID of an answer outside any session: unique
// for the server's lifetime.
func (s *Server) rejectID(path string) string {
	return requestID(path, "", int(s.rejects.Add(1)))
}

// session returns the session of a request, making it on first use with
// the server's clock; nil when the server holds maxSessions already.
func (s *Server) session(sc *served, name, session string) *session {
	key := sessionKey{name, session}
	s.mu.RLock()
	sess := s.sessions[key]
	s.mu.RUnlock()
	if sess != nil {
		return sess
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess = s.sessions[key]; sess == nil {
		if len(s.sessions) >= maxSessions {
			return nil
		}
		sess = newSession(sc, session, s.clock, &s.seq, &s.entries)
		sess.gen = s.resets.Load()
		s.sessions[key] = sess
	}
	return sess
}

// ServeHTTP routes a POST to a wire's route under /<scenario> (Anthropic's
// v1/messages, OpenAI's v1/chat/completions and v1/responses) to the
// scenario's session named by SessionHeader, and /_faultbench/ to the journal and reset. Any other
// path, or an unknown scenario, is a 404 in the error shape of the
// request's wire; another method on an API path is a 405; GET
// <base>v1/models lists the scenario's models (routes.go). These are
// journalled as strays, with their route and method.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, adminPrefix) {
		s.admin(w, r)
		return
	}
	sessName := header(r.Header, SessionHeader, defaultSession)
	if routed, sess, ok := pathSession(r.URL.Path); ok { // pathsession.go
		r.URL.Path, sessName = routed, sess
	}
	if name, api, ok := s.countRoute(r.URL.Path); ok && s.lookup(name) != nil && len(sessName) <= maxSessionName {
		s.countTokens(w, r, api, s.lookup(name), name, sessName, wire.Route{})
		return
	}
	if name, ok := modelsRoute(r.URL.Path); ok && r.Method == http.MethodGet && s.lookup(name) != nil {
		s.listModels(w, r, s.lookup(name), name, sessName) // routes.go
		return
	}
	name, wr, rt, ok := s.routeOrDefault(r.URL.Path, r.URL.RawQuery) // defaultscenario.go
	if rt.Session != "" && header(r.Header, SessionHeader, "") == "" {
		sessName = rt.Session // Vertex's project names it, unless the header does
	}
	if rt.Key != "" && r.Header.Get(rt.KeyHeader) == "" {
		r.Header.Set(rt.KeyHeader, rt.Key) // ?key= is the key in the query
	}
	if ok && rt.Count && s.lookup(name) != nil && len(sessName) <= maxSessionName {
		s.countTokens(w, r, wr, s.lookup(name), name, sessName, rt)
		return
	}
	var sc *served
	if ok {
		sc = s.lookup(name)
	}
	if sc == nil {
		if !ok { // routes.go: the scenario the path names, the wire the request is of
			wr = s.wireOfRequest(r)
			s.stray(w, r, wr.NotFound(r.Method, r.URL.Path, "", false), wr, s.strayScenario(r.URL.Path), sessName)
			return
		}
		s.stray(w, r, wr.NotFound(r.Method, r.URL.Path, clipEntry(name), ok), wr, name, sessName)
		return
	}
	if r.Method != http.MethodPost { // journalled as a stray: it uses up no request number
		w.Header()["Allow"] = []string{http.MethodPost}
		s.stray(w, r, wire.MethodNotAllowed(r.Method), wr, name, sessName)
		return
	}
	if len(sessName) > maxSessionName {
		s.stray(w, r, wire.InvalidRequest(fmt.Sprintf("%s: at most %d bytes", SessionHeader, maxSessionName)), wr, name, "")
		return
	}

	sess := s.session(sc, name, sessName)
	in := incoming{api: wr, purpose: header(r.Header, PurposeHeader, purposeTurn), retryCount: retryCount(r.Header), betas: wire.Betas(r.Header)}
	read := false           // the body was read to its end
	var refused *wire.Error // refused on its headers
	switch {
	case purposeIndex(in.purpose) < 0:
		refused = wire.InvalidRequest(fmt.Sprintf("%s: %q is not a purpose; send %q or %q", PurposeHeader, clipEntry(in.purpose), purposeTurn, purposeRepair))
	default:
		refused = wr.Check(r.Header)
	}
	// A request refused on its headers still has its body read, as the
	// real API reads it, so that its entry says what the body named (its
	// model, budget, stream, input); only a client that waits to be told
	// to send the body (Expect: 100-continue) is answered at once.
	if refused == nil || !expectsContinue(r) {
		// A Router's path names the model and whether it streams.
		in.req.Model, in.req.HasModel, in.req.Stream, in.req.Array = rt.Model, rt.Model != "", rt.Stream, rt.Array
		in.req.KeepLast = sc.contains
		in.req.Cache.On = sc.quota.cache != nil && refused == nil
		if hr, ok := wr.(wire.HeaderReader); ok {
			hr.ReadHeaders(r.Header, &in.req)
		}
		if sess != nil && refused == nil { // a refused body teaches the session's memo nothing
			in.req.Mem = &sess.mem
		}
		in.rejected = decodeBody(w, r, &in, wr)
		read = r.ContentLength <= maxBodyBytes
	}
	if refused != nil { // the headers' error comes first, as the API checks them first
		in.rejected = refused
	}
	if !read {
		hangUpUnread(w, r)
	}
	if sess == nil {
		e := wire.InvalidRequest(fmt.Sprintf("too many sessions (%d): POST %sreset to clear them", maxSessions, adminPrefix))
		s.stray(w, r, e, wr, name, "")
		return
	}
	rp := sess.serve(&in)
	rp.write(w, r)
}

// expectsContinue reports whether the client waits for a 100 Continue
// before it sends the body.
func expectsContinue(r *http.Request) bool {
	for _, v := range r.Header["Expect"] {
		if strings.EqualFold(strings.TrimSpace(v), "100-continue") {
			return true
		}
	}
	return false
}

// hangUpUnread makes the answer to a request refused before its body was
// read the last on its connection: net/http would otherwise read on for up
// to 256 KB of the body before answering, and a client that waits for the
// answer before sending the rest (a declared 34 MB, Expect: 100-continue)
// would hear nothing until the read timeout.
func hangUpUnread(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
	}
}

// reject answers a request that reaches no session, so is not journaled.
func reject(w http.ResponseWriter, r *http.Request, e *wire.Error, api wire.Wire, id string) {
	rp := reply{api: api}
	rp.Err, rp.RequestID = e, id
	rp.write(w, r)
}

// header returns the first value of a header (key in canonical form), or
// def when it is absent or empty.
func header(h http.Header, key, def string) string {
	if v := h[key]; len(v) > 0 && v[0] != "" {
		return v[0]
	}
	return def
}
