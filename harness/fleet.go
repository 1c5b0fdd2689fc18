package harness

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
)

// turnSession names turn k's mock session in a workload run.
func turnSession(strategy string, k int) string { return strategy + "#" + strconv.Itoa(k+1) }

// turnClock is the scheduler as the mock's session of one turn sees it:
// the time, and waits that park the turn, bounded by the deadline of the
// turn's attempt in flight (as deadline does for a lone turn).
type turnClock struct {
	s   *sched
	cur atomic.Pointer[attempt]
}

var _ mockllm.Waiter = (*turnClock)(nil)

func (c *turnClock) Now() time.Time { return c.s.Now() }

func (c *turnClock) ClientDeadline() (time.Time, bool) {
	if a := c.cur.Load(); a != nil {
		return a.end, true
	}
	return time.Time{}, false
}

// Wait parks the turn for d, or until its attempt's deadline when d (or a
// hang, d < 0) would pass it; then it fails.
func (c *turnClock) Wait(ctx context.Context, d time.Duration) error {
	a := c.cur.Load()
	now := c.s.Now()
	if a == nil {
		if d < 0 {
			return errGaveUp // no deadline to end a hang: the client gives up at once
		}
		return c.s.Sleep(ctx, d)
	}
	if d >= 0 && !now.Add(d).After(a.end) {
		return c.s.Sleep(ctx, d)
	}
	_ = c.s.Sleep(ctx, a.end.Sub(now))
	a.expired.Store(true)
	return errGaveUp
}

// fleetTransport sends each request in the session of the turn that runs,
// with that turn's attempt deadline.
type fleetTransport struct {
	s        *sched
	clocks   []*turnClock
	strategy string
	timeout  time.Duration
	next     http.RoundTripper
	sent     func(k int, at time.Time) // turn k sends a request at at
}

func (t *fleetTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	k := t.s.current()
	c := t.clocks[k]
	// The request is not cut when the run's context ends: the mock may be
	// waiting on this turn's behalf, parked in the scheduler, and a client
	// that went on without its answer would run beside the turn the
	// scheduler runs. The end of the context reaches the turn through the
	// engine's next sleep instead.
	r := req.Clone(context.WithoutCancel(req.Context()))
	r.Header.Set(mockllm.SessionHeader, turnSession(t.strategy, k))
	now := c.Now()
	t.sent(k, now)
	a := &attempt{end: now.Add(t.timeout)}
	c.cur.Store(a)
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		if a.expired.Load() {
			return nil, timeoutError{t.timeout}
		}
		return nil, err
	}
	resp.Body = &deadlineBody{ReadCloser: resp.Body, a: a, timeout: t.timeout}
	return resp, nil
}

// runFleet runs a scenario's workload for one strategy: its turns, one
// engine, one scheduler (sched.go), a mock session per turn sharing the
// scenario's quotas.
func (e *env) runFleet(ctx context.Context, j job) (ledger.Result, error) {
	name, strategy := j.sc.Name, j.strategy.Name
	w := j.sc.Workload
	every := w.Start.Every.D()
	recs := make([]*ledger.Recorder, w.Turns)
	turns := make([]ledger.TurnResult, w.Turns)
	started := make([]time.Time, w.Turns)
	errs := make([]error, w.Turns)
	sessions := make([]string, w.Turns)
	var s *sched
	var engine *recovery.Engine
	due := func(k int) time.Time { return clock.Epoch.Add(time.Duration(k) * every) }
	s = newSched(w.Turns, w.Concurrency, due,
		func(k int) {
			started[k] = s.Now()
			recs[k] = ledger.NewRecorder(name, strategy, clock.Epoch, recovery.CountTokens)
			req := Conversation(j.sc.Turn) // built as the turn starts, dropped as it ends
			req.Background = j.sc.Turn.Background || w.IsBackground(k)
			var res ledger.Result
			if len(j.sc.Tools) > 0 {
				ar, err := engine.RunAgent(ctx, req, Tools(j.sc))
				outcome, reason := JudgeAgent(ar, err)
				res = recs[k].Finish(outcome, reason, ar.Steps)
			} else {
				r, err := engine.Do(ctx, req)
				outcome, reason := Judge(r, err)
				res = recs[k].Finish(outcome, reason, 1)
			}
			turns[k] = ledger.TurnResult{Result: res, Latency: s.Now().Sub(started[k]), Background: req.Background,
				Queued: started[k].Sub(due(k))}
			// Checked and forgotten as soon as the turn ends, so that memory
			// follows the turns in flight, not the turns run.
			if err := ledger.Reconcile(res, served(e.mock.Entries(name, sessions[k]))); err != nil {
				errs[k] = fmt.Errorf("harness: turn %d: %w", k+1, err)
			}
			e.mock.CloseSession(name, sessions[k])
			recs[k] = nil
		})
	clocks := make([]*turnClock, w.Turns)
	mclocks := make([]mockllm.Clock, w.Turns)
	for k := range clocks {
		clocks[k] = &turnClock{s: s}
		sessions[k], mclocks[k] = turnSession(strategy, k), clocks[k]
	}
	defer func() {
		for _, sess := range sessions {
			e.mock.CloseSession(name, sess)
		}
	}()
	if err := e.mock.OpenFleet(name, sessions, mclocks); err != nil {
		return ledger.Result{Scenario: name, Strategy: strategy}, fmt.Errorf("harness: open fleet: %w", err)
	}
	ft := &fleetTransport{s: s, clocks: clocks, strategy: strategy, timeout: AttemptTimeout, next: e.client.Transport,
		sent: func(k int, at time.Time) { recs[k].Sent(at) }}
	// The transport names each request's turn session; the provider's own
	// session header is replaced.
	provider := newProvider(j.sc, e.ep.BaseURL(name), strategy, &http.Client{Transport: ft})
	engine = recovery.New(provider, *j.strategy,
		recovery.WithClock(s),
		recovery.WithRand(runSeed(e.seed, name, strategy)),
		recovery.WithObserver(func(ev recovery.Event) { recs[s.current()].Observe(ev) }),
		recovery.WithLimits(Limits(j.sc)),
		recovery.WithFallbacks(j.sc.Turn.Fallback...),
		recovery.WithAuthRefresh(authRefresh(j.sc)),
	)
	s.Run()
	res := ledger.Fleet(name, strategy, turns, s.Now().Sub(clock.Epoch))
	if ctx.Err() != nil && slices.ContainsFunc(turns, func(t ledger.TurnResult) bool { return t.Result.Outcome == ledger.OutcomeCancelled }) {
		// A turn cut by the end of the context cuts the fleet: its figures
		// are not the workload's.
		res.Outcome, res.Reason = ledger.OutcomeCancelled, "context ended"
	}
	return res, errors.Join(errs...)
}
