package mockllm

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/scenario"
)

// The purposes a request can have, from the X-Faultbench-Purpose header.
const (
	purposeTurn   = "turn"
	purposeRepair = "repair"
)

// defaultAnswerTokens is the size of an answer or a summary whose scenario
// does not say.
const defaultAnswerTokens = 1000

// served is a scenario as the mock serves it: the scenario, shared and
// never changed, and the texts of its answers, made once.
type served struct {
	sc      *scenario.Scenario
	answer  string // tokens.Text of the turn's answer_tokens
	summary string // tokens.Text of the compaction's summary_tokens
}

func newServed(sc *scenario.Scenario) *served {
	answer, summary := sc.Turn.AnswerTokens, sc.Compaction.SummaryTokens
	if answer <= 0 {
		answer = defaultAnswerTokens
	}
	if summary <= 0 {
		summary = defaultAnswerTokens
	}
	return &served{sc: sc, answer: tokens.Text(answer), summary: tokens.Text(summary)}
}

// session is one client's run through a scenario: its clock and start, its
// request counters, how often each rule has answered, and its journal.
// Sessions share nothing but the scenario, which they only read.
type session struct {
	scenario *served
	name     string
	clock    Clock
	seq      *atomic.Uint64 // the server's: orders entries across sessions

	mu       sync.Mutex
	start    time.Time
	started  bool   // a session made by a request starts at that request
	n        int    // requests taken
	attempts [2]int // requests per purpose: turn, repair
	uses     []int  // answers given, per rule
	records  journal
}

func newSession(sc *served, name string, clock Clock, seq *atomic.Uint64) *session {
	return &session{scenario: sc, name: name, clock: clock, seq: seq, uses: make([]int, len(sc.sc.Script))}
}

// incoming is a request as the server hands it to its session: decoded, or
// already rejected.
type incoming struct {
	req        request
	rejected   *apiError // a bad method, purpose header or body
	purpose    string
	retryCount *int
}

// purposeIndex returns the counter of a purpose, or -1 for one the mock
// does not know.
func purposeIndex(p string) int {
	switch p {
	case purposeTurn:
		return 0
	case purposeRepair:
		return 1
	}
	return -1
}

// serve takes one request: it numbers it, runs the model check, the limits
// and the script, and journals it, all under the session's lock so that
// concurrent requests of one session see a consistent order. The reply is
// written after the lock is released.
func (s *session) serve(in *incoming) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	if !s.started {
		s.start, s.started = now, true
	}
	t := now.Sub(s.start)
	s.n++
	attempt := 0
	if i := purposeIndex(in.purpose); i >= 0 {
		s.attempts[i]++
		attempt = s.attempts[i]
	}
	sc := s.scenario.sc
	rp := reply{requestID: requestID(sc.Name, s.name, s.n)}
	switch {
	case in.rejected != nil:
		rp.err = in.rejected
	default:
		s.answer(&rp, &in.req, in.purpose, attempt, t)
	}

	e := Entry{
		Scenario:    sc.Name,
		Session:     s.name,
		N:           s.n,
		TimeMS:      t.Milliseconds(),
		Purpose:     in.purpose,
		Attempt:     attempt,
		Model:       in.req.model,
		MaxTokens:   in.req.maxTokens,
		InputTokens: in.req.inputTokens(),
		Status:      rp.status(),
		RetryCount:  in.retryCount,
		RequestID:   rp.requestID,
	}
	if rp.err != nil {
		e.Kind = rp.err.kind
	} else {
		e.OutputTokens, e.StopReason = rp.ans.output, rp.ans.stop
		e.Kind = kindOK
		if rp.ans.stop == "max_tokens" {
			e.Kind = kindTruncated
		}
	}
	s.records.add(record{seq: s.seq.Add(1), Entry: e})
	return rp
}

// answer decides the reply to a decoded request: an unknown model, then the
// model's limits, then the first rule of the script that matches and is
// not used up, else a complete answer. A rule answers with its error when
// it has a status of 400 or more and not ok; otherwise (ok, or only
// headers) with a complete answer. Its headers go on either.
func (s *session) answer(rp *reply, q *request, purpose string, attempt int, t time.Duration) {
	sc := s.scenario.sc
	m, ok := sc.Models[q.model]
	if !ok {
		rp.err = unknownModel(q.model)
		return
	}
	if err := checkLimits(q.model, m, q.inputTokens(), q.maxTokens); err != nil {
		rp.err = err
		return
	}
	i := s.match(q.model, purpose, attempt, t)
	if i >= 0 {
		s.uses[i]++
		r := &sc.Script[i].Respond
		rp.headers = r.Headers
		if !r.OK && r.Status >= 400 {
			rp.err = scripted(r.Status, r.Type, r.Message)
			return
		}
	}
	text := s.scenario.answer
	if purpose == purposeRepair {
		text = s.scenario.summary
	}
	a := answer{
		id: messageID(sc.Name, s.name, s.n), model: q.model, stop: "end_turn",
		input: q.inputTokens(), output: tokens.Count(text), text: text,
	}
	if a.output > q.maxTokens {
		a.text, a.stop, a.output = tokens.Truncate(text, q.maxTokens), "max_tokens", q.maxTokens
	}
	rp.ans = a
}

// match returns the index of the first rule whose when matches the request
// and whose times is not used up, or -1.
func (s *session) match(model, purpose string, attempt int, t time.Duration) int {
	for i := range s.scenario.sc.Script {
		r := &s.scenario.sc.Script[i]
		if r.Times > 0 && s.uses[i] >= r.Times {
			continue
		}
		if matches(&r.When, model, purpose, attempt, t) {
			return i
		}
	}
	return -1
}

// matches reports whether w holds for a request; a zero field matches
// anything. Time is virtual time since the session began: After <= t, and
// t < Before when Before is set.
func matches(w *scenario.When, model, purpose string, attempt int, t time.Duration) bool {
	switch {
	case w.Model != "" && w.Model != model:
		return false
	case w.Purpose != "" && w.Purpose != purpose:
		return false
	case w.Attempt != 0 && w.Attempt != attempt:
		return false
	case t < w.After.D():
		return false
	case w.Before != 0 && t >= w.Before.D():
		return false
	}
	return true
}

// entries copies the session's journal out.
func (s *session) entries() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.records.entries()
}

// appendRecords appends the session's records to dst.
func (s *session) appendRecords(dst []record) []record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.records.appendTo(dst)
}

// methodNotAllowed answers a request to the messages path that is not a POST.
func methodNotAllowed(method string) *apiError {
	return &apiError{
		status: http.StatusMethodNotAllowed, typ: "invalid_request_error",
		msg: "Method " + method + " not allowed; use POST", kind: kindInvalidRequest,
	}
}
