package recovery

import (
	"sync"
	"time"
)

// AdaptiveLimiter bounds the requests the Engine's turns have in flight
// together, with a limit it learns by AIMD: every 429 or 529 (rate_limit
// or overloaded) cuts it to limit × BackoffRatio (never below MinLimit);
// every other answer, while at least half the limit is in use, adds one
// (never above MaxLimit). A request waits, on the engine's clock, for a
// slot, looking again every SlotPoll.
//
// It is Netflix concurrency-limits' AIMDLimit (backoffRatio, +1 per
// sample) under failsafe-go's adaptivelimiter name; failsafe-go's own
// adaptive limiter grows and cuts on latency (Vegas-like), which a mock
// whose answers take a fixed time cannot show.
type AdaptiveLimiter struct {
	Enabled bool
	// InitialLimit is the limit before any answer; 0 means 20.
	InitialLimit int
	// MinLimit is the least the limit is cut to; 0 means 1.
	MinLimit int
	// MaxLimit is the most it grows to; 0 means 200.
	MaxLimit int
	// BackoffRatio multiplies the limit on a 429 or 529, from 0 to 1; 0
	// means 0.9 (Netflix's default).
	BackoffRatio float64
}

// SlotPoll is how often a request waiting for a slot of the adaptive
// limiter looks again: a wait on the clock, so that under a virtual clock
// the other turns run meanwhile.
const SlotPoll = 50 * time.Millisecond

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

// adaptiveLimiter is the limiter's state.
type adaptiveLimiter struct {
	mu       sync.Mutex
	limit    int // 0 until first used
	inflight int
}

// acquire takes a slot if one is free.
func (a *adaptiveLimiter) acquire(cfg AdaptiveLimiter) (ok bool, inflight, limit int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.limit == 0 {
		a.limit = cfg.initialLimit()
	}
	if a.inflight >= a.limit {
		return false, a.inflight, a.limit
	}
	a.inflight++
	return true, a.inflight, a.limit
}

// release frees a slot after an answer of kind k and returns the limit
// before and after it.
func (a *adaptiveLimiter) release(cfg AdaptiveLimiter, k Kind) (from, to int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	from = a.limit
	switch {
	case k == KindRateLimit || k == KindOverloaded:
		a.limit = max(int(float64(a.limit)*cfg.backoffRatio()), cfg.minLimit())
	case k == KindCancelled:
	case 2*a.inflight >= a.limit:
		a.limit = min(a.limit+1, cfg.maxLimit())
	}
	a.inflight--
	return from, a.limit
}
