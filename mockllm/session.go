package mockllm

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/faultbench/faultbench/internal/canonjson"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
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
	// inputs holds, per rule, its tool calls' inputs as canonical JSON.
	inputs [][]string
	// contains is whether a rule matches on when.contains, so that the
	// decoder must keep the last message.
	contains bool
	// global are the server's model aliases (WithAliases), after the
	// scenario's own.
	global map[string]string
	// quota is the scenario's buckets and capacity, shared by the sessions
	// a request opens (serve: one organisation's key).
	quota *quotas
}

func newServed(sc *scenario.Scenario) *served {
	answer, summary := sc.Turn.AnswerTokens, sc.Compaction.SummaryTokens
	if answer <= 0 {
		answer = defaultAnswerTokens
	}
	if summary <= 0 {
		summary = defaultAnswerTokens
	}
	sv := &served{sc: sc, answer: tokens.Text(answer), summary: tokens.Text(summary), inputs: make([][]string, len(sc.Script)), quota: newQuotas(sc)}
	for i := range sc.Script {
		r := &sc.Script[i]
		sv.contains = sv.contains || r.When.Contains != ""
		for _, t := range r.Respond.ToolUse {
			canon, err := canonjson.Encode([]byte(t.Input))
			if err != nil { // Validate refuses it; answer with no arguments
				canon = []byte("{}")
			}
			sv.inputs[i] = append(sv.inputs[i], string(canon))
		}
	}
	return sv
}

// session is one client's run through a scenario: its clock and start, its
// request counters, how often each rule has answered, and its journal.
// Sessions share nothing but the scenario, which they only read.
type session struct {
	scenario *served
	name     string
	clock    Clock
	seq      *atomic.Uint64 // the server's: orders entries across sessions
	// gen is how many times the server was reset before the session was
	// made: it goes into the session's IDs, which so never repeat.
	gen   uint64
	quota *quotas // the scenario's, or the session's own (Open)

	mu       sync.Mutex
	start    time.Time
	started  bool   // a session made by a request starts at that request
	n        int    // requests taken
	attempts [2]int // requests per purpose: turn, repair
	uses     []int  // answers given, per rule
	last     time.Duration
	asked    time.Duration // the wait the last answer asked for
	hasAsked bool
	records  journal
	mem      wire.Memory  // the last body's messages, in a session made by Open (internal/wire/memo.go)
	betas    string       // the betas of the session's last request: its next entry shares them when the same
	recent   recentBodies // the fingerprints of the latest bodies, for Entry.Resend
	refused  refusal      // the last request a rule refused with a 400, for when.unshrunk
	// windows are the refusal windows a scripted wait opened, by model
	// (earlyretry.go).
	windows map[string]shutWindow
}

func newSession(sc *served, name string, clock Clock, seq *atomic.Uint64, budget *entryBudget) *session {
	return &session{scenario: sc, name: name, clock: clock, seq: seq, uses: make([]int, len(sc.sc.Script)),
		records: journal{budget: budget}, quota: sc.quota}
}

// idName is what the session's IDs are hashed from: its name, and the
// server's resets before it when there were any (so a harness run, which
// never resets, keeps the IDs it always had).
func (s *session) idName() string {
	if s.gen == 0 {
		return s.name
	}
	return s.name + "\x00" + strconv.FormatUint(s.gen, 10)
}

// incoming is a request as the server hands it to its session: decoded, or
// already rejected.
type incoming struct {
	api        wire.Wire
	req        wire.Request
	rejected   *wire.Error // a bad method, purpose header or body
	purpose    string
	retryCount *int
	betas      string // the anthropic-beta header's names (wire.Betas)
	// fingerprint hashes the body as read (hasBody: one was), so that a
	// resend of it is known.
	fingerprint uint64
	hasBody     bool
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
// concurrent requests of one session see a consistent order. The reply
// (and any wait it holds) is written after the lock is released.
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
	rp := reply{api: in.api, stream: in.req.Stream, clock: s.clock}
	rp.Usage, rp.Input, rp.RequestID, rp.Created = in.req.IncludeUsage, in.req.InputTokens(), requestID(sc.Name, s.idName(), s.n), now.Unix()
	rp.Array = in.req.Array
	rp.Echo = in.req.Echo()
	if in.rejected != nil {
		rp.Err = in.rejected
	} else {
		s.answer(&rp, &in.req, in.purpose, attempt, t, now)
	}
	s.record(&rp, in, attempt, t, now)
	return rp
}

// record journals a request and what it got.
func (s *session) record(rp *reply, in *incoming, attempt int, t time.Duration, now time.Time) {
	e := Entry{
		Scenario:    s.scenario.sc.Name,
		Session:     s.name,
		N:           s.n,
		TimeMS:      t.Milliseconds(),
		Purpose:     in.purpose,
		Attempt:     attempt,
		Model:       in.req.Model,
		MaxTokens:   in.req.MaxTokens,
		InputTokens: in.req.InputTokens(),
		Status:      rp.status(),
		Kind:        rp.kind(),
		RetryCount:  in.retryCount,
		RequestID:   rp.RequestID,
		Wire:        in.api.Spec().Name,
		Stream:      in.req.Stream,
		Betas:       s.sharedBetas(in.betas),
		Rule:        rp.rule,
	}
	if err := rp.answeredError(); err != nil {
		e.ErrorType, e.ErrorMessage = err.Type, clipEntry(err.Message)
	}
	if in.hasBody {
		e.Resend = s.recent.resend(in.fingerprint, s.n)
	}
	if rp.lag+rp.gen > 0 {
		if w, ok := s.clock.(Waiter); ok {
			if deadline, known := w.ClientDeadline(); known {
				e.Status, e.Kind = rp.outpaced(now, deadline, e.Status, e.Kind)
			}
		}
	}
	if !rp.fault.IsZero() {
		e.Fault = rp.fault.String()
		if w, ok := s.clock.(Waiter); ok {
			if deadline, known := w.ClientDeadline(); known {
				e.Status, e.Kind = rp.outlasted(now, deadline, e.Status, e.Kind)
			}
		}
	}
	switch {
	case rp.Err == nil && e.Status == 200 && (e.Kind == wire.KindOK || e.Kind == wire.KindTruncated):
		e.OutputTokens, e.StopReason = rp.Ans.Output, in.api.StopReason(&rp.Ans)
	case rp.Err == nil && e.Status == 200:
		// A 200 the fault broke: what the client got, and no stop reason.
		e.OutputTokens = rp.outputSent()
	}
	if s.n > 1 {
		gap := t - s.last
		e.GapMS = gap.Milliseconds()
		if s.hasAsked {
			honored := gap >= s.asked
			e.HonoredRetryAfter = &honored
		}
	}
	s.last, s.hasAsked = t, false
	if rp.Err != nil {
		if d, ok := rp.askedWait(now); ok {
			ms := d.Milliseconds()
			e.RetryAfterMS, s.asked, s.hasAsked = &ms, d, true
		}
	}
	s.records.add(record{seq: s.seq.Add(1), Entry: e})
}

// answer decides the reply to a decoded request: an unknown model, then the
// model's limits, then the refusal of a retry that comes before the wait a
// scripted error asked for (earlyretry.go), then the first rule of the
// script that matches and is not used up, else a complete answer if the model's capacity and quotas
// admit it (quota.go). A rule answers with its error when it has a status
// of 400 or more and not ok; with its fault when it has one; otherwise
// (ok, tool calls, or only headers) with a normal answer, which the
// model's capacity and quotas must admit first, as they admit an
// unscripted one: refused, the request gets their 429 or 529 and the rule
// is not used. Its headers go on any answer it gives.
func (s *session) answer(rp *reply, q *wire.Request, purpose string, attempt int, t time.Duration, now time.Time) {
	sc := s.scenario.sc
	// model is what the script and limits see; q.model, what the client
	// sent, stays in the journal and the answer.
	model, ok := s.scenario.resolve(q.Model)
	if !ok {
		// A 30 MB model name is not sent back whole.
		rp.Err = rp.api.UnknownModel(clipEntry(q.Model), s.scenario.modelNames())
		return
	}
	m := sc.Models[model]
	defer func() {
		rp.Rate = s.quota.state(model, now)
		if rp.Rate != nil && rp.Err != nil {
			rp.Rate.Refused = rp.Err.Bucket // one truth per 429: the headers tell of the bucket the message names
		}
	}()
	if err := rp.api.Limits(q.Model, m, q); err != nil {
		rp.Err = err
		return
	}
	if s.refuseEarly(rp, q.Model, model, now) {
		return
	}
	i := s.match(q, model, purpose, attempt, t)
	if i < 0 {
		s.admitted(rp, q, model, m, purpose, now)
		return
	}
	r := &sc.Script[i].Respond
	// A rule that answers normally (ok, tool calls, headers alone) goes
	// through the model's capacity and quotas as an unscripted request
	// does: a real API rate-limits a normal answer. A refused request
	// does not use the rule up. A scripted error or fault is the injected
	// failure itself, and answers first.
	if normal := (r.OK || r.Status < 400) && r.Fault.IsZero(); normal {
		tk, refusal, wait := s.quota.admit(rp.api, model, rp.RequestID, q.InputTokens(), q.MaxTokens, now)
		if refusal != nil {
			refuse(rp, refusal, wait)
			return
		}
		defer func() { s.quota.settle(tk, rp.Ans.Output, now.Add(rp.lag+rp.gen)) }()
	}
	s.uses[i]++
	rp.rule = i + 1
	rp.headers = rebase(r.Headers, s.start)
	switch {
	case len(r.ToolUse) > 0:
		s.toolAnswer(rp, q, i)
		pace(rp, m)
		s.cached(rp, q, model, r.Cache == scenario.CacheMiss, now)
		return
	case !r.OK && r.Status >= 400:
		if r.Status == http.StatusBadRequest {
			s.refused = refusal{at: true, input: q.InputTokens(), maxTokens: orMax(q.MaxTokens, m.MaxOutput), inputOnly: rp.api.Spec().Name == scenario.WireGemini}
		}
		s.scriptedError(rp, &sc.Script[i], i, q.Model, model, t, now)
		return
	case !r.Fault.IsZero():
		rp.fault = r.Fault
		if r.Fault.Kind == scenario.FaultError {
			// A rate limit inside a stream asks for the wait a scripted
			// 429 would, and states the model's buckets as one would.
			status := statusOf(rp.api, r.Type)
			wait, _ := scriptedWait(rp.headers, &sc.Script[i], status, t, now)
			failure := rp.api.Scripted(wire.Scripted{Status: status, Type: r.Type, Msg: r.Message, Model: q.Model, Wait: wait, RequestID: rp.RequestID,
				Quota: r.Quota, RetryDelay: r.RetryDelay.D(), Rate: s.quota.state(model, now)})
			if !q.Stream {
				// No stream to fail in: the error comes as its status.
				rp.Err = failure
				rp.fault = scenario.Fault{Dribble: r.Fault.Dribble, Delay: r.Fault.Delay}
				return
			}
			rp.Failure = failure
		}
	}
	s.compose(rp, q, m, purpose)
	pace(rp, m)
	if !r.Fault.Unserved() {
		s.cached(rp, q, model, r.Cache == scenario.CacheMiss, now)
	}
}

// cached has the answer read and write the model's prompt cache
// (cache.go) and report it in its usage; what it writes can be read
// once it begins, after its first token (pace sets rp.lag).
func (s *session) cached(rp *reply, q *wire.Request, model string, miss bool, now time.Time) {
	u := s.quota.cache.use(model, &q.Cache, rp.api.Spec().CacheAuto, miss, now, now.Add(rp.lag))
	rp.Ans.CacheRead, rp.Ans.CacheWrite5m, rp.Ans.CacheWrite1h = u.Read, u.Write5m, u.Write1h
}

// scriptedError fills the error rule r answers with, and the wait it
// asks for: what its headers say (retry-after-ms, retry-after, the reset
// of the shut rate-limit window); for a 429 that says nothing, the time
// left in the rule's window (when.before), else 1 s. A rate-limit 429
// carries that wait in retry-after unless the rule sets retry-after or
// retry-after-ms itself (an empty value removes it); OpenAI's message and
// reset headers state the same wait. On a wire whose body states its own
// wait (Gemini's RetryInfo), that wait is the one asked, and journalled.
// A 429, 503 or 529 that asks for a wait opens a refusal window for it
// (earlyretry.go). i is the rule's index; name is the model the client
// sent, model the served one it resolved to.
func (s *session) scriptedError(rp *reply, rule *scenario.Rule, i int, name, model string, t time.Duration, now time.Time) {
	r := &rule.Respond
	wait, asked := scriptedWait(rp.headers, rule, r.Status, t, now)
	// A scripted error pays no bucket: the state its message states is the
	// one its headers show.
	rp.Err = rp.api.Scripted(wire.Scripted{Status: r.Status, Type: r.Type, Msg: r.Message, Model: name, Wait: wait, RequestID: rp.RequestID,
		Quota: r.Quota, RetryDelay: r.RetryDelay.D(), Rate: s.quota.state(model, now)})
	if r.Body != "" {
		// The rule words the whole error: its body goes out as written,
		// and its message is the one the journal and the kind read.
		rp.Err.Body, rp.Err.Message = []byte(r.Body), scenario.ErrorBodyMessage(r.Body)
		rp.Err.Kind = wire.ErrorKind(rp.Err.Status, rp.Err.Type, rp.Err.Message)
	}
	if rp.Err.Wait > 0 && !asked {
		// The body states its own wait (Gemini's RetryInfo: a rule's
		// retry_delay, a day for a per-day quota): that is the wait asked.
		wait = rp.Err.Wait
	}
	rp.Wait = wait
	if (rp.Err.Kind == wire.KindRateLimit || rp.Err.Wait > 0) && !hasHeader(r.Headers, "retry-after") && !hasHeader(r.Headers, "retry-after-ms") {
		rp.retryAfter = retryAfterSeconds(wait)
	}
	s.shut(rp, rule, i, model, asked, now)
}

// scriptedWait is the wait a scripted error asks for: what its headers
// say (asked), else for a 429 the time left in the rule's window
// (when.before), else 1 s; 0 for another status.
func scriptedWait(headers map[string]string, rule *scenario.Rule, status int, t time.Duration, now time.Time) (time.Duration, bool) {
	wait, asked := ruleWait(headers, now)
	if !asked && status == http.StatusTooManyRequests {
		wait = defaultRateLimitWait
		if b := rule.When.Before.D(); b > t {
			wait = b - t
		}
	}
	return wait, asked
}

// compose fills a complete answer: the turn's answer, or a repair call's
// summary, cut at max_tokens (without max_tokens, an OpenAI request is cut
// at the model's max_output).
func (s *session) compose(rp *reply, q *wire.Request, m scenario.Model, purpose string) {
	sc := s.scenario.sc
	text := s.scenario.answer
	if purpose == purposeRepair {
		text = s.scenario.summary
	}
	a := wire.Answer{Model: q.Model, Stop: "end_turn", Input: q.InputTokens(), Output: tokens.Count(text), Text: text}
	a.ID = wire.AnswerID(rp.api.Spec(), sc.Name, s.idName(), s.n)
	limit := q.MaxTokens
	if limit == 0 {
		limit = m.MaxOutput
	}
	if limit > 0 && a.Output > limit {
		a.Text, a.Stop, a.Output = tokens.Truncate(text, limit), "max_tokens", limit
	}
	rp.Ans = a
}

// toolAnswer fills an answer of tool_use blocks from rule i, in its n-th
// use: every call, or with cycle the call (n−1) mod len; with vary each
// input gains "step": n. The output tokens are those of the inputs' JSON.
func (s *session) toolAnswer(rp *reply, q *wire.Request, i int) {
	sc := s.scenario.sc
	r := &sc.Script[i].Respond
	n := s.uses[i]
	idx := make([]int, 0, len(r.ToolUse))
	if r.Cycle {
		idx = append(idx, (n-1)%len(r.ToolUse))
	} else {
		for k := range r.ToolUse {
			idx = append(idx, k)
		}
	}
	spec := rp.api.Spec()
	a := wire.Answer{Model: q.Model, Stop: "tool_use", Input: q.InputTokens()}
	a.ID = wire.AnswerID(spec, sc.Name, s.idName(), s.n)
	for k, j := range idx {
		input := s.scenario.inputs[i][j]
		if r.Vary {
			step := `{"step":` + strconv.Itoa(n)
			if input == "{}" {
				input = step + "}"
			} else {
				input = step + "," + input[1:]
			}
		}
		id := wire.ToolID(spec, sc.Name, s.idName(), s.n, k)
		a.Tools = append(a.Tools, wire.ToolCall{ID: id, Name: r.ToolUse[j].Name, Input: input})
		a.Output += tokens.Count(input)
	}
	rp.Ans = a
}

// match returns the index of the first rule whose when matches the request
// and whose times is not used up, or -1.
func (s *session) match(q *wire.Request, model, purpose string, attempt int, t time.Duration) int {
	for i := range s.scenario.sc.Script {
		r := &s.scenario.sc.Script[i]
		if r.Times > 0 && s.uses[i] >= r.Times {
			continue
		}
		if matches(&r.When, model, purpose, attempt, t) && (r.When.Contains == "" || q.LastContains(r.When.Contains)) &&
			(!r.When.Unshrunk || s.refused.unshrunk(q, s.scenario.sc.Models[model].MaxOutput)) {
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

// sharedBetas is b, as the session's previous entry holds it when it is
// the same: a client sends the same betas with every request, and its
// entries share one copy.
func (s *session) sharedBetas(b string) string {
	if b == s.betas {
		return s.betas
	}
	s.betas = b
	return b
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
