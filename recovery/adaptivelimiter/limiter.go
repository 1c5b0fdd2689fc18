package adaptivelimiter

import (
	"sync"
	"time"
)

// Config bounds the requests the Engine's turns have in flight together
// on each model, with a limit it learns by AIMD: a 429 or 529 (rate_limit
// or overloaded) cuts it to limit × BackoffRatio (never below MinLimit);
// every other answer, while at least half the limit is in use, adds one
// (never above MaxLimit). As TCP cuts once per window, a refusal of a
// request sent before the last cut does not cut again: a burst of
// refusals is one congestion event. A request waits, on the engine's
// clock, for a slot: woken, first come first served, when one is freed
// (on a clock that can wake it), or looking again every
// recovery.SlotPoll.
//
// It is Netflix concurrency-limits' AIMDLimit (backoffRatio, +1 per
// sample) under failsafe-go's adaptivelimiter name; failsafe-go's own
// adaptive limiter grows and cuts on latency (Vegas-like), which a mock
// whose answers take a fixed time cannot show.
type Config struct {
	Enabled bool `yaml:"enabled"`
	// InitialLimit is the limit before any answer; 0 means 20.
	InitialLimit int `yaml:"initial_limit"`
	// MinLimit is the least the limit is cut to; 0 means 1.
	MinLimit int `yaml:"min_limit"`
	// MaxLimit is the most it grows to; 0 means 200.
	MaxLimit int `yaml:"max_limit"`
	// BackoffRatio multiplies the limit on a 429 or 529, from 0 to 1; 0
	// means 0.9 (Netflix's default).
	BackoffRatio float64 `yaml:"backoff_ratio"`
}

// Effective returns c with its defaults resolved: MaxLimit at least
// MinLimit, InitialLimit between them, a BackoffRatio outside (0, 1) 0.9.
func (c Config) Effective() Config {
	if c.MinLimit <= 0 {
		c.MinLimit = 1
	}
	if c.MaxLimit <= 0 {
		c.MaxLimit = 200
	}
	c.MaxLimit = max(c.MaxLimit, c.MinLimit)
	if c.InitialLimit <= 0 {
		c.InitialLimit = 20
	}
	c.InitialLimit = min(max(c.InitialLimit, c.MinLimit), c.MaxLimit)
	if c.BackoffRatio <= 0 || c.BackoffRatio >= 1 {
		c.BackoffRatio = 0.9
	}
	return c
}

// Outcome is what became of a request that held a slot.
type Outcome int

// The outcomes the limiter tells apart.
const (
	// Answered: anything but a refusal or a cancellation.
	Answered Outcome = iota
	// Refused: a 429 or 529 (rate_limit or overloaded).
	Refused
	// Cancelled before its answer: the limit does not move.
	Cancelled
)

// Limiters is the limiter's state, per model; the zero value is ready.
type Limiters struct {
	mu     sync.Mutex
	models map[string]*aimd
}

// aimd is one model's limit.
type aimd struct {
	limit    int
	inflight int
	cut      time.Time     // when the limit was last cut
	waiting  []func() bool // the wake-ups of the requests waiting for a slot, oldest first
}

func (l *Limiters) get(cfg Config, model string) *aimd {
	if l.models == nil {
		l.models = map[string]*aimd{}
	}
	m := l.models[model]
	if m == nil {
		m = &aimd{limit: cfg.Effective().InitialLimit}
		l.models[model] = m
	}
	return m
}

// Acquire takes a slot on model if one is free, and says how many are in
// flight and the limit.
func (l *Limiters) Acquire(cfg Config, model string) (ok bool, inflight, limit int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.get(cfg, model)
	if m.inflight >= m.limit {
		return false, m.inflight, m.limit
	}
	m.inflight++
	return true, m.inflight, m.limit
}

// Release frees a slot on model taken at sent, after outcome o at now,
// wakes the oldest waiting requests for the free slots, and returns the
// limit before and after it.
func (l *Limiters) Release(cfg Config, model string, o Outcome, sent, now time.Time) (from, to int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.get(cfg, model)
	eff := cfg.Effective()
	from = m.limit
	switch {
	case o == Refused:
		if !sent.Before(m.cut) {
			m.limit = max(int(float64(m.limit)*eff.BackoffRatio), eff.MinLimit)
			m.cut = now
		}
	case o == Cancelled:
	case 2*m.inflight >= m.limit:
		m.limit = min(m.limit+1, eff.MaxLimit)
	}
	m.inflight--
	m.wakeLocked()
	return from, m.limit
}

// Enlist queues the wake-up of a request waiting for a slot on model.
// wake reports whether the request was still waiting.
func (l *Limiters) Enlist(cfg Config, model string, wake func() bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.get(cfg, model)
	m.waiting = append(m.waiting, wake)
}

// Kick wakes as many waiting requests as model has free slots: after a
// request that was woken gave up instead of taking its slot.
func (l *Limiters) Kick(cfg Config, model string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.get(cfg, model).wakeLocked()
}

// wakeLocked wakes the oldest waiting requests, one for each free slot; a
// wake-up whose wait is already over is dropped and the next one tried.
func (m *aimd) wakeLocked() {
	for free := m.limit - m.inflight; free > 0 && len(m.waiting) > 0; {
		wake := m.waiting[0]
		m.waiting[0] = nil
		m.waiting = m.waiting[1:]
		if wake() {
			free--
		}
	}
	if len(m.waiting) == 0 {
		m.waiting = nil // let the array go
	}
}
