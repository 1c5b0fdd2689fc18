package recovery

import (
	"sync"
	"time"
)

// RetryBudget bounds the retries of all the Engine's turns together:
// within each window, retries ≤ Ratio × requests + MinRetries, where a
// request is a turn's first attempt and a retry any later attempt of a
// turn (a resend, a fallback, an escalation: whatever adds load). A turn
// whose failure would be retried beyond the budget gives up at once, with
// no wait, as StopRetryBudget. So a run of N turns within one window
// sends at most N × (1 + Ratio) + MinRetries attempts, and in general at
// most N × (1 + Ratio) + MinRetries × the windows it spans.
//
// It is Finagle's RetryBudget (percentCanRetry, minRetriesPerSec over a
// ttl), the model Envoy's retry_budget (budget_percent,
// min_retry_concurrency) and gRPC's retry throttling also follow: retries
// as a share of the traffic, plus a floor so that a quiet client can
// still retry. The window is a fixed one (it starts with the Engine's
// first request and is renewed when it ends), not sliding, so that its
// bound can be stated and checked. failsafe-go's budget policy bounds
// concurrent retries instead; it has no counterpart of this window.
type RetryBudget struct {
	Enabled bool
	// Ratio is the retries allowed per request, from 0 to 1; Finagle's
	// default is 0.2.
	Ratio float64
	// MinRetries is the retries each window allows whatever the traffic.
	MinRetries int
	// Window is how long requests and retries are counted; 0 means 10 s
	// (Finagle's ttl).
	Window time.Duration
}

func (b RetryBudget) window() time.Duration {
	if b.Window <= 0 {
		return 10 * time.Second
	}
	return b.Window
}

// retryBudget is the budget's state: the counts of the current window.
type retryBudget struct {
	mu       sync.Mutex
	start    time.Time
	requests int
	retries  int
}

// rollLocked starts a new window when now is past the current one.
func (b *retryBudget) rollLocked(cfg RetryBudget, now time.Time) {
	w := cfg.window()
	if b.start.IsZero() {
		b.start = now
	}
	if now.Sub(b.start) >= w {
		b.start = b.start.Add(now.Sub(b.start) / w * w)
		b.requests, b.retries = 0, 0
	}
}

func (b *retryBudget) allowsLocked(cfg RetryBudget) bool {
	return float64(b.retries+1) <= cfg.Ratio*float64(b.requests)+float64(cfg.MinRetries)
}

// allows reports whether one more retry fits the budget now.
func (b *retryBudget) allows(cfg RetryBudget, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.rollLocked(cfg, now)
	return b.allowsLocked(cfg)
}

// take counts a request, or a retry if it fits; it reports false, and
// counts nothing, for a retry beyond the budget.
func (b *retryBudget) take(cfg RetryBudget, retry bool, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.rollLocked(cfg, now)
	if !retry {
		b.requests++
		return true
	}
	if !b.allowsLocked(cfg) {
		return false
	}
	b.retries++
	return true
}

// refund gives back a count taken for an attempt that was not sent.
func (b *retryBudget) refund(retry bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if retry && b.retries > 0 {
		b.retries--
	} else if !retry && b.requests > 0 {
		b.requests--
	}
}
