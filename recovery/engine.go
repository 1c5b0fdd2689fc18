package recovery

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
)

// Clock is the engine's only source of time: the harness injects a virtual
// one, production code the wall clock (the default).
type Clock interface {
	Now() time.Time
	// Sleep waits d, or returns ctx's error as soon as ctx ends.
	Sleep(ctx context.Context, d time.Duration) error
}

// A WakeClock is a Clock on which a wait can be ended early by another
// turn. The adaptive limiter waits for a slot on one and is woken when a
// slot is freed; on a Clock that is not a WakeClock it looks again every
// SlotPoll. The wall clock the engine defaults to is one, and so is the
// harness's virtual clock.
type WakeClock interface {
	Clock
	// SleepWake waits like Sleep, but first hands enlist a wake function
	// that ends the wait early, from any goroutine; wake reports whether it
	// ended the wait (false once the wait is over). A woken wait returns
	// nil.
	SleepWake(ctx context.Context, d time.Duration, enlist func(wake func() bool)) error
}

var _ WakeClock = clock.Real{}

// Limits are a model's context window and output limit, in tokens. A zero
// field is unknown.
type Limits struct {
	ContextWindow int
	MaxOutput     int
}

// Engine runs a Strategy over a Provider. Each call to Do owns its
// counters, so one Engine may serve many turns, concurrently; the state of
// the cross-turn policies (RateLimiter, RetryBudget, CircuitBreaker,
// AdaptiveLimiter) is the Engine's, shared by its turns as in a real
// process. The random source it was given is shared too, so give each
// concurrent user its own Engine when runs must replay exactly.
type Engine struct {
	provider  Provider
	strategy  Strategy
	effective Strategy // strategy.Effective(), what every turn runs
	clock     Clock
	rand      *rand.Rand
	observe   Observer
	classify  Classifier
	limits    map[string]Limits
	count     func(Request) int
	fallbacks []string
	refresh   func(context.Context) error
	pol       policies // the cross-turn policies' state, shared by every turn
}

// Option configures an Engine.
type Option func(*Engine)

// WithClock sets the clock; the default is the wall clock.
func WithClock(c Clock) Option { return func(e *Engine) { e.clock = c } }

// WithRand sets the random source used for jitter. The default is seeded
// from crypto/rand, so two processes do not jitter in step; inject a seeded
// source to replay a run.
func WithRand(r *rand.Rand) Option { return func(e *Engine) { e.rand = r } }

// WithObserver sets the function that receives every Event.
func WithObserver(o Observer) Option { return func(e *Engine) { e.observe = o } }

// WithClassifier replaces DefaultClassifier.
func WithClassifier(c Classifier) Option { return func(e *Engine) { e.classify = c } }

// WithLimits tells the engine each model's window and output limit, so that
// escalation and compaction can plan requests that fit. Without them the
// engine learns the window from overflow errors.
func WithLimits(l map[string]Limits) Option { return func(e *Engine) { e.limits = l } }

// WithCounter sets how the engine counts a request's input tokens. The
// default is CountTokens: ceil(bytes/4) per text, the rule faultbench's mock
// counts by.
func WithCounter(f func(Request) int) Option { return func(e *Engine) { e.count = f } }

// WithFallbacks sets the models to switch to, in order, when the turn's
// model is overloaded or not found.
func WithFallbacks(models ...string) Option {
	return func(e *Engine) { e.fallbacks = append([]string(nil), models...) }
}

// WithAuthRefresh sets the function a strategy with AuthRefresh calls on a
// 401, at most once per turn, before it resends with a fresh count of
// attempts: it should renew the credentials the Provider sends (clear a
// cached token, fetch a new one). An error from it stops the turn. Without
// it a 401 stops at once.
func WithAuthRefresh(f func(ctx context.Context) error) Option {
	return func(e *Engine) { e.refresh = f }
}

// New returns an engine that runs s over p.
func New(p Provider, s Strategy, opts ...Option) *Engine {
	e := &Engine{provider: p, strategy: s, effective: s.Effective()}
	for _, o := range opts {
		o(e)
	}
	if e.clock == nil {
		e.clock = clock.Real{}
	}
	if e.rand == nil {
		var seed [16]byte
		_, _ = crand.Read(seed[:])
		e.rand = rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))
	}
	if e.classify == nil {
		e.classify = DefaultClassifier
	}
	if e.count == nil {
		e.count = CountTokens
	}
	if e.observe == nil {
		e.observe = func(Event) {}
	}
	return e
}

// Strategy returns the engine's strategy.
func (e *Engine) Strategy() Strategy { return e.strategy }

// CountTokens counts a request's input tokens by faultbench's rule:
// ceil(bytes/4) for the system prompt, for each message's text, for the raw
// JSON of each tool call's input and for each tool result's content, each
// block counted on its own as the mock counts it.
func CountTokens(r Request) int {
	n := tokens.Count(r.System)
	for _, m := range r.Messages {
		n += tokens.Count(m.Text)
		for _, c := range m.ToolCalls {
			n += countBytes(len(c.Input))
		}
		for _, t := range m.ToolResults {
			n += tokens.Count(t.Content)
		}
	}
	return n
}

func countBytes(n int) int { return (n + tokens.BytesPerToken - 1) / tokens.BytesPerToken }

// Result is what a turn produced and what it took. Do returns it even when
// it returns an error, so a caller can see what was spent.
type Result struct {
	Response    *Response // the answer handed back; nil when none was
	Request     Request   // the last request sent for the turn
	Attempts    int
	RepairCalls int
	Fallbacks   int
	Escalations int
	Adjustments int
	Compactions int
	Waited      time.Duration
}

// Do runs one turn: it sends req, recovers from failures as the strategy
// says, and returns the answer. A truncated answer that cannot be grown is
// handed back without an error (its StopReason says max_tokens). When the
// engine gives up, the error is a *GiveUpError wrapping the last failure.
func (e *Engine) Do(ctx context.Context, req Request) (*Result, error) {
	if req.Purpose == "" {
		req.Purpose = PurposeTurn
	}
	t := &turn{e: e, s: e.effective, req: req.Clone(), models: fallbackChain(req.Model, e.fallbacks)}
	return t.run(ctx)
}

// fallbackChain is the turn's model, then its fallbacks, each once (a
// fallback that repeats an earlier model would only resend to it).
func fallbackChain(model string, fallbacks []string) []string {
	chain := []string{model}
	for _, m := range fallbacks {
		if !slices.Contains(chain, m) {
			chain = append(chain, m)
		}
	}
	return chain
}
