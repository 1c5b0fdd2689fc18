package retrybudget

import (
	"sync"
	"time"
)

// Config bounds the retries of all the Engine's turns together:
// within each window, retries ≤ Ratio × requests + MinRetries, where a
// request is a turn's first attempt and a retry any later attempt of a
// turn (a resend, a fallback, an escalation: whatever adds load). A turn
// whose failure would be retried beyond the budget gives up at once, with
// no wait, as recovery.StopRetryBudget. So a run of N turns within one window
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
type Config struct {
	Enabled bool `yaml:"enabled"`
	// Ratio is the retries allowed per request, from 0 to 1; Finagle's
	// default is 0.2.
	Ratio float64 `yaml:"ratio"`
	// MinRetries is the retries each window allows whatever the traffic.
	MinRetries int `yaml:"min_retries"`
	// Window is how long requests and retries are counted; 0 means 10 s
	// (Finagle's ttl).
	Window time.Duration `yaml:"window"`
}

// Effective returns c with its defaults resolved: a Window of 0 is 10 s.
func (c Config) Effective() Config {
	if c.Window <= 0 {
		c.Window = 10 * time.Second
	}
	return c
}

// Budget is the budget's state, the counts of the current window, shared
// by every turn of an Engine and safe for concurrent use; its zero value
// is an empty budget.
type Budget struct {
	mu       sync.Mutex
	start    time.Time
	requests int
	retries  int
}

// rollLocked starts a new window when now is past the current one.
func (b *Budget) rollLocked(cfg Config, now time.Time) {
	w := cfg.Effective().Window
	if b.start.IsZero() {
		b.start = now
	}
	if now.Sub(b.start) >= w {
		b.start = b.start.Add(now.Sub(b.start) / w * w)
		b.requests, b.retries = 0, 0
	}
}

func (b *Budget) allowsLocked(cfg Config) bool {
	return float64(b.retries+1) <= cfg.Ratio*float64(b.requests)+float64(cfg.MinRetries)
}

// Allows reports whether one more retry fits the budget now.
func (b *Budget) Allows(cfg Config, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.rollLocked(cfg, now)
	return b.allowsLocked(cfg)
}

// Take counts a request, or a retry if it fits; it reports false, and
// counts nothing, for a retry beyond the budget.
func (b *Budget) Take(cfg Config, retry bool, now time.Time) bool {
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

// Refund gives back a count taken for an attempt that was not sent.
func (b *Budget) Refund(retry bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if retry && b.retries > 0 {
		b.retries--
	} else if !retry && b.requests > 0 {
		b.requests--
	}
}
