package strategyfile

import (
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/faultbench/faultbench/recovery"
)

// The cross-turn policies of a strategy file (docs/strategies.md): one
// block each, off unless enabled.

type rateLimiter struct {
	Enabled *bool     `yaml:"enabled"`
	MaxWait *duration `yaml:"max_wait"`
}

type retryBudget struct {
	Enabled    *bool     `yaml:"enabled"`
	Ratio      *float64  `yaml:"ratio"`
	MinRetries *int      `yaml:"min_retries"`
	Window     *duration `yaml:"window"`
}

type circuitBreaker struct {
	Enabled          *bool     `yaml:"enabled"`
	FailureThreshold *int      `yaml:"failure_threshold"`
	Delay            *duration `yaml:"delay"`
}

type adaptiveLimiter struct {
	Enabled      *bool    `yaml:"enabled"`
	InitialLimit *int     `yaml:"initial_limit"`
	MinLimit     *int     `yaml:"min_limit"`
	MaxLimit     *int     `yaml:"max_limit"`
	BackoffRatio *float64 `yaml:"backoff_ratio"`
}

// checkPolicies checks the policies' values against their ceilings.
func (f *doc) checkPolicies(c *checker) {
	if r := f.RateLimiter; r != nil {
		c.wait("$.rate_limiter.max_wait", r.MaxWait)
	}
	if b := f.RetryBudget; b != nil {
		c.ratio("$.retry_budget.ratio", b.Ratio)
		c.count("$.retry_budget.min_retries", b.MinRetries, MaxAttempts)
		c.wait("$.retry_budget.window", b.Window)
	}
	if b := f.CircuitBreaker; b != nil {
		c.count("$.circuit_breaker.failure_threshold", b.FailureThreshold, MaxAttempts)
		c.wait("$.circuit_breaker.delay", b.Delay)
	}
	if a := f.AdaptiveLimiter; a != nil {
		c.count("$.adaptive_limiter.initial_limit", a.InitialLimit, MaxConcurrency)
		c.count("$.adaptive_limiter.min_limit", a.MinLimit, MaxConcurrency)
		c.count("$.adaptive_limiter.max_limit", a.MaxLimit, MaxConcurrency)
		c.ratio("$.adaptive_limiter.backoff_ratio", a.BackoffRatio)
		if r := a.BackoffRatio; r != nil && *r == 1 {
			c.bad("$.adaptive_limiter.backoff_ratio", "must be below 1 (1 would never cut the limit; 0 takes the default 0.9), got 1")
		}
		if a.MinLimit != nil && a.MaxLimit != nil && *a.MaxLimit > 0 && *a.MinLimit > *a.MaxLimit {
			c.bad("$.adaptive_limiter.min_limit", "must be <= max_limit (%d), got %d", *a.MaxLimit, *a.MinLimit)
		}
	}
}

// writePolicies writes the policies' blocks over s.
func (f *doc) writePolicies(s *recovery.Strategy) {
	if r := f.RateLimiter; r != nil {
		set(&s.RateLimiter.Enabled, r.Enabled)
		setDuration(&s.RateLimiter.MaxWait, r.MaxWait)
	}
	if b := f.RetryBudget; b != nil {
		set(&s.RetryBudget.Enabled, b.Enabled)
		set(&s.RetryBudget.Ratio, b.Ratio)
		set(&s.RetryBudget.MinRetries, b.MinRetries)
		setDuration(&s.RetryBudget.Window, b.Window)
	}
	if b := f.CircuitBreaker; b != nil {
		set(&s.CircuitBreaker.Enabled, b.Enabled)
		set(&s.CircuitBreaker.FailureThreshold, b.FailureThreshold)
		setDuration(&s.CircuitBreaker.Delay, b.Delay)
	}
	if a := f.AdaptiveLimiter; a != nil {
		set(&s.AdaptiveLimiter.Enabled, a.Enabled)
		set(&s.AdaptiveLimiter.InitialLimit, a.InitialLimit)
		set(&s.AdaptiveLimiter.MinLimit, a.MinLimit)
		set(&s.AdaptiveLimiter.MaxLimit, a.MaxLimit)
		set(&s.AdaptiveLimiter.BackoffRatio, a.BackoffRatio)
	}
}

// marshalPolicies writes the policies' blocks, every field spelt out.
func marshalPolicies(s recovery.Strategy, line func(int, string, string), group func(string)) {
	group("rate_limiter")
	line(1, "enabled", strconv.FormatBool(s.RateLimiter.Enabled))
	line(1, "max_wait", dur(s.RateLimiter.MaxWait))
	group("retry_budget")
	line(1, "enabled", strconv.FormatBool(s.RetryBudget.Enabled))
	line(1, "ratio", num(s.RetryBudget.Ratio))
	line(1, "min_retries", strconv.Itoa(s.RetryBudget.MinRetries))
	line(1, "window", dur(s.RetryBudget.Window))
	group("circuit_breaker")
	line(1, "enabled", strconv.FormatBool(s.CircuitBreaker.Enabled))
	line(1, "failure_threshold", strconv.Itoa(s.CircuitBreaker.FailureThreshold))
	line(1, "delay", dur(s.CircuitBreaker.Delay))
	group("adaptive_limiter")
	a := s.AdaptiveLimiter
	line(1, "enabled", strconv.FormatBool(a.Enabled))
	line(1, "initial_limit", strconv.Itoa(a.InitialLimit))
	line(1, "min_limit", strconv.Itoa(a.MinLimit))
	line(1, "max_limit", strconv.Itoa(a.MaxLimit))
	line(1, "backoff_ratio", num(a.BackoffRatio))
}

// promptCache is how the strategy marks its prompt for the provider's
// prompt cache: the breakpoints and their lifetime (5m or 1h).
type promptCache struct {
	Breakpoints *[]breakpoint `yaml:"breakpoints"`
	TTL         *cacheTTL     `yaml:"ttl"`
}

// breakpoint is a recovery.Breakpoint by its name.
type breakpoint recovery.Breakpoint

func (b *breakpoint) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "a cache breakpoint")
	if err != nil {
		return err
	}
	v, perr := recovery.ParseBreakpoint(s)
	if perr != nil {
		return badValue(n, "unknown cache breakpoint %s (known: %s, %s)", short(s), recovery.BreakpointSystem, recovery.BreakpointLastUser)
	}
	*b = breakpoint(v)
	return nil
}

// cacheTTL is a cache lifetime: 5m or 1h, the two the APIs take.
type cacheTTL time.Duration

func (t *cacheTTL) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "a cache lifetime, 5m or 1h")
	if err != nil {
		return err
	}
	switch s {
	case "5m":
		*t = cacheTTL(recovery.CacheTTL5m)
	case "1h":
		*t = cacheTTL(recovery.CacheTTL1h)
	default:
		return badValue(n, "a cache lifetime is 5m or 1h, got %s", short(s))
	}
	return nil
}

// writeCache writes the prompt_cache block over s.
func (f *doc) writeCache(s *recovery.Strategy) {
	c := f.PromptCache
	if c == nil {
		return
	}
	if c.Breakpoints != nil {
		s.PromptCache.Breakpoints = nil
		for _, b := range *c.Breakpoints {
			if !s.PromptCache.Has(recovery.Breakpoint(b)) {
				s.PromptCache.Breakpoints = append(s.PromptCache.Breakpoints, recovery.Breakpoint(b))
			}
		}
	}
	if c.TTL != nil {
		s.PromptCache.TTL = time.Duration(*c.TTL)
		if s.PromptCache.TTL == recovery.CacheTTL5m {
			s.PromptCache.TTL = 0 // the default, as the presets say it
		}
	}
}

// marshalCache writes the prompt_cache block, every field spelt out.
func marshalCache(s recovery.Strategy, line func(int, string, string), group func(string)) {
	group("prompt_cache")
	names := make([]string, 0, len(s.PromptCache.Breakpoints))
	for _, b := range s.PromptCache.Breakpoints {
		names = append(names, string(b))
	}
	line(1, "breakpoints", "["+strings.Join(names, ", ")+"]")
	ttl := "5m"
	if s.PromptCache.Lifetime() >= recovery.CacheTTL1h {
		ttl = "1h"
	}
	line(1, "ttl", ttl)
}
