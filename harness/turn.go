package harness

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// A plan says how a run's turns go. A lone turn is a workload of one turn
// that starts at once; a scenario's workload has its turns, its
// concurrency and its starts. Both go through the same pipeline (play),
// so the deadline, the bounds and the ledger are shared by construction.
type plan struct {
	turns, concurrency int
	start              func(k int) time.Time
	session            func(k int) string
	// timed records how long each attempt was in flight (duration_ms),
	// which the report gives for a workload only.
	timed bool
	fleet bool // the result sums the turns (ledger.Fleet)
}

// lone is the plan of a scenario without a workload: one turn, in the
// session named after the strategy.
func lone(session string) plan {
	return plan{turns: 1, concurrency: 1,
		start:   func(int) time.Time { return clock.Epoch },
		session: func(int) string { return session }}
}

// fleet is the plan of a workload: turn k runs in session "strategy#k+1"
// and starts at k × start.every.
func fleet(w scenario.Workload, strategy string) plan {
	every := w.Start.Every.D()
	return plan{turns: w.Turns, concurrency: w.Concurrency,
		start:   func(k int) time.Time { return clock.Epoch.Add(time.Duration(k) * every) },
		session: func(k int) string { return strategy + "#" + strconv.Itoa(k+1) },
		timed:   true, fleet: true}
}

// live is one run in progress: its scheduler (one virtual clock shared by
// its turns), a mock session per turn on that turn's clock, the bounded
// provider every request goes through, and each turn's context, which the
// bound cancels.
type live struct {
	ctx      context.Context // the run's: its end ends every turn
	e        *env
	sc       *scenario.Scenario
	p        plan
	s        *sched
	clocks   []*turnClock
	sessions []string
	cancels  []context.CancelCauseFunc
	recs     []*ledger.Recorder // the record of each turn in flight
	provider *bounded
	hit      atomic.Pointer[runBound] // set once the run reaches a bound
}

// turnKey carries a turn's index in its context, for the bound to cancel
// the turn whose request reached it.
type turnKey struct{}

func turnOf(ctx context.Context) (int, bool) {
	k, ok := ctx.Value(turnKey{}).(int)
	return k, ok
}

// open starts a run of sc by plan p: the scheduler, whose turns run body,
// and the mock's sessions. Close it when the run is over.
func (e *env) open(ctx context.Context, sc *scenario.Scenario, p plan, body func(ctx context.Context, k int)) (*live, error) {
	r := &live{ctx: ctx, e: e, sc: sc, p: p,
		clocks: make([]*turnClock, p.turns), sessions: make([]string, p.turns),
		cancels: make([]context.CancelCauseFunc, p.turns), recs: make([]*ledger.Recorder, p.turns)}
	r.s = newSched(p.turns, p.concurrency, p.start, func(k int) {
		ctx, cancel := context.WithCancelCause(context.WithValue(r.ctx, turnKey{}, k))
		defer cancel(nil)
		r.cancels[k] = cancel
		if b := r.hit.Load(); b != nil {
			cancel(b) // the run reached its bound before this turn began
		}
		body(ctx, k)
	})
	clocks := make([]mockllm.Clock, p.turns)
	for k := range r.clocks {
		r.clocks[k] = &turnClock{s: r.s}
		r.sessions[k], clocks[k] = p.session(k), r.clocks[k]
	}
	var err error
	if p.turns == 1 {
		err = e.mock.Open(sc.Name, r.sessions[0], clocks[0])
	} else {
		err = e.mock.OpenFleet(sc.Name, r.sessions, clocks)
	}
	if err != nil {
		return nil, fmt.Errorf("harness: open session: %w", err)
	}
	t := &turnTransport{s: r.s, clocks: r.clocks, sessions: r.sessions, timeout: AttemptTimeout, next: e.client.Transport}
	if p.timed {
		t.sent = func(k int, at time.Time) { r.recs[k].Sent(at) }
	}
	// The transport names each request's turn session; the provider's own
	// session header is replaced.
	r.provider = &bounded{Provider: newProvider(sc, e.ep.BaseURL(sc.Name), r.sessions[0], &http.Client{Transport: t}),
		tokens: e.runTokens, messages: e.runMessages, requests: e.runRequests, reached: r.reached}
	return r, nil
}

// reached stops the run at bound b: the turn whose request reached it at
// once, every other turn when it next wakes or starts (engineClock), so
// that no turn is stopped with a request in flight.
func (r *live) reached(ctx context.Context, b *runBound) {
	r.hit.CompareAndSwap(nil, b)
	if k, ok := turnOf(ctx); ok {
		r.cancels[k](r.hit.Load())
	}
}

// close closes every session of the run that is still open.
func (r *live) close() {
	for _, sess := range r.sessions {
		r.e.mock.CloseSession(r.sc.Name, sess)
	}
}

// engine is the run's recovery engine: one for all its turns, on the
// run's clock, its random source, the turns' records, and the provider
// with the run's bounds inside.
func (r *live) engine(s *recovery.Strategy) *recovery.Engine {
	return recovery.New(r.provider, *s,
		recovery.WithClock(engineClock{r}),
		recovery.WithRand(rand.New(&turnSource{s: r.s, seed: r.e.seed, sc: r.sc.Name, turns: make([]*rand.PCG, r.p.turns)})),
		recovery.WithObserver(func(ev recovery.Event) { r.recs[r.s.current()].Observe(ev) }),
		recovery.WithLimits(Limits(r.sc)),
		recovery.WithFallbacks(r.sc.Turn.Fallback...),
		recovery.WithAuthRefresh(authRefresh(r.sc)),
	)
}

// engineClock is the run's clock as its engine sleeps on it. A turn that
// wakes after the run reached a bound is stopped there, before it sends
// again.
type engineClock struct{ r *live }

func (c engineClock) Now() time.Time { return c.r.s.Now() }

func (c engineClock) Sleep(ctx context.Context, d time.Duration) error {
	return c.stopAtBound(ctx, c.r.s.Sleep(ctx, d))
}

// SleepWake makes engineClock a recovery.WakeClock: the adaptive
// limiter's waiters are woken when a slot is freed, not polled.
func (c engineClock) SleepWake(ctx context.Context, d time.Duration, enlist func(wake func() bool)) error {
	return c.stopAtBound(ctx, c.r.s.SleepWake(ctx, d, enlist))
}

// stopAtBound is the end of a wait: the turn is stopped when the run
// reached a bound meanwhile.
func (c engineClock) stopAtBound(ctx context.Context, err error) error {
	if err != nil {
		return err
	}
	if b := c.r.hit.Load(); b != nil {
		if k, ok := turnOf(ctx); ok {
			c.r.cancels[k](b)
		}
		return ctx.Err()
	}
	return nil
}

// play runs job j by plan p: every turn played, judged, reconciled with
// its session's journal and closed as it ends, so that memory follows the
// turns in flight, not the turns run.
func (e *env) play(ctx context.Context, j job, p plan) (ledger.Result, error) {
	name, strategy := j.sc.Name, j.strategy.Name
	turns := make([]ledger.TurnResult, p.turns)
	errs := make([]error, p.turns)
	var r *live
	var engine *recovery.Engine
	r, err := e.open(ctx, j.sc, p, func(tctx context.Context, k int) {
		turns[k], errs[k] = r.turn(tctx, k, engine, strategy)
	})
	if err != nil {
		return ledger.Result{Scenario: name, Strategy: strategy}, err
	}
	defer r.close()
	engine = r.engine(j.strategy)
	r.s.Run()
	if !p.fleet {
		if errs[0] != nil {
			return turns[0].Result, fmt.Errorf("harness: %w", errs[0])
		}
		return turns[0].Result, nil
	}
	for k, err := range errs {
		if err != nil {
			errs[k] = fmt.Errorf("harness: turn %d: %w", k+1, err)
		}
	}
	res := ledger.Fleet(name, strategy, turns, r.s.Now().Sub(clock.Epoch))
	if ctx.Err() != nil && slices.ContainsFunc(turns, func(t ledger.TurnResult) bool { return t.Result.Outcome == ledger.OutcomeCancelled }) {
		// A turn cut by the end of the context cuts the fleet: its figures
		// are not the workload's.
		res.Outcome, res.Reason = ledger.OutcomeCancelled, "context ended"
	}
	return res, errors.Join(errs...)
}

// turn plays turn k on the run's engine, judges it and checks its record
// against its session's journal; tctx is the turn's context.
func (r *live) turn(tctx context.Context, k int, engine *recovery.Engine, strategy string) (ledger.TurnResult, error) {
	started := r.s.Now()
	rec := ledger.NewRecorder(r.sc.Name, strategy, clock.Epoch, recovery.CountTokens)
	rec.SetPrices(prices(r.sc))
	r.recs[k] = rec
	defer func() { r.recs[k] = nil }()
	req := Conversation(r.sc.Turn) // built as the turn starts, dropped as it ends
	req.Background = r.sc.Turn.Background || r.sc.Workload.IsBackground(k)
	var outcome ledger.Outcome
	var reason string
	steps := 1
	if len(r.sc.Tools) > 0 {
		ar, err := engine.RunAgent(tctx, req, Tools(r.sc))
		outcome, reason = JudgeAgent(ar, err)
		if ar != nil {
			steps = ar.Steps
		}
	} else {
		res, err := engine.Do(tctx, req)
		outcome, reason = Judge(res, err)
	}
	var bound *runBound
	if r.ctx.Err() == nil && errors.As(context.Cause(tctx), &bound) {
		outcome, reason = ledger.OutcomeAborted, bound.Error()
	}
	res := rec.Finish(outcome, reason, steps)
	tr := ledger.TurnResult{Result: res, Latency: r.s.Now().Sub(started), Background: req.Background,
		Queued: started.Sub(r.p.start(k))} // from when it was due: a slot of the concurrency was taken
	err := ledger.Reconcile(res, served(r.e.mock.Entries(r.sc.Name, r.sessions[k])))
	r.e.mock.CloseSession(r.sc.Name, r.sessions[k])
	return tr, err
}

var _ recovery.WakeClock = engineClock{}
