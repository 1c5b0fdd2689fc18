package recovery

import (
	"sync"
	"time"
)

// AdaptiveLimiter bounds the requests the Engine's turns have in flight
// together on each model, with a limit it learns by AIMD: a 429 or 529
// (rate_limit or overloaded) cuts it to limit × BackoffRatio (never below
// MinLimit); every other answer, while at least half the limit is in use,
// adds one (never above MaxLimit). As TCP cuts once per window, a refusal
// of a request sent before the last cut does not cut again: a burst of
// refusals is one congestion event. A request waits, on the engine's
// clock, for a slot: woken, first come first served, when one is freed
// (on a WakeClock), or looking again every SlotPoll.
//
// It is Netflix concurrency-limits' AIMDLimit (backoffRatio, +1 per
// sample) under failsafe-go's adaptivelimiter name; failsafe-go's own
// adaptive limiter grows and cuts on latency (Vegas-like), which a mock
// whose answers take a fixed time cannot show.
type AdaptiveLimiter struct {
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

// SlotPoll is how often a request waiting for a slot of the adaptive
// limiter looks again on a Clock that is not a WakeClock: a wait on the
// clock, so that under a virtual clock the other turns run meanwhile.
const SlotPoll = 50 * time.Millisecond

// slotWake is the longest a request waits on a WakeClock for a slot
// before it looks again unwoken: a freed slot wakes it, so this only
// bounds a wait whose wake-up went to a request that then gave up.
const slotWake = time.Minute

func (a AdaptiveLimiter) minLimit() int { return orDefault(a.MinLimit, 1) }
func (a AdaptiveLimiter) maxLimit() int { return max(orDefault(a.MaxLimit, 200), a.minLimit()) }
func (a AdaptiveLimiter) initialLimit() int {
	return min(max(orDefault(a.InitialLimit, 20), a.minLimit()), a.maxLimit())
}

func (a AdaptiveLimiter) backoffRatio() float64 {
	if a.BackoffRatio <= 0 || a.BackoffRatio >= 1 {
		return 0.9
	}
	return a.BackoffRatio
}

// adaptiveLimiter is the limiter's state, per model.
type adaptiveLimiter struct {
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

func (a *adaptiveLimiter) get(cfg AdaptiveLimiter, model string) *aimd {
	if a.models == nil {
		a.models = map[string]*aimd{}
	}
	m := a.models[model]
	if m == nil {
		m = &aimd{limit: cfg.initialLimit()}
		a.models[model] = m
	}
	return m
}

// acquire takes a slot on model if one is free.
func (a *adaptiveLimiter) acquire(cfg AdaptiveLimiter, model string) (ok bool, inflight, limit int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := a.get(cfg, model)
	if m.inflight >= m.limit {
		return false, m.inflight, m.limit
	}
	m.inflight++
	return true, m.inflight, m.limit
}

// release frees a slot on model taken at sent, after an answer of kind k
// at now, and returns the limit before and after it.
func (a *adaptiveLimiter) release(cfg AdaptiveLimiter, model string, k Kind, sent, now time.Time) (from, to int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := a.get(cfg, model)
	from = m.limit
	switch {
	case k == KindRateLimit || k == KindOverloaded:
		if !sent.Before(m.cut) {
			m.limit = max(int(float64(m.limit)*cfg.backoffRatio()), cfg.minLimit())
			m.cut = now
		}
	case k == KindCancelled:
	case 2*m.inflight >= m.limit:
		m.limit = min(m.limit+1, cfg.maxLimit())
	}
	m.inflight--
	m.wakeLocked()
	return from, m.limit
}

// enlist queues the wake-up of a request waiting for a slot on model.
func (a *adaptiveLimiter) enlist(cfg AdaptiveLimiter, model string, wake func() bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := a.get(cfg, model)
	m.waiting = append(m.waiting, wake)
}

// kick wakes as many waiting requests as model has free slots: after a
// request that was woken gave up instead of taking its slot.
func (a *adaptiveLimiter) kick(cfg AdaptiveLimiter, model string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.get(cfg, model).wakeLocked()
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
