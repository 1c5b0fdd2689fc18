package scenario

import (
	"time"
)

// RateLimits are a model's per-minute quotas, enforced by the mock as
// token buckets shared by every caller of the model (docs/scenario-format.md):
// each bucket holds up to its per-minute limit and refills continuously
// at that rate. A zero field is no limit.
type RateLimits struct {
	// RPM is requests per minute: each admitted request pays 1.
	RPM int `yaml:"rpm"`
	// ITPM is input tokens per minute: each admitted request pays its
	// counted input.
	ITPM int `yaml:"itpm"`
	// OTPM is output tokens per minute: each admitted request reserves its
	// max_tokens, and gets back what its answer did not use when the
	// answer ends.
	OTPM int `yaml:"otpm"`
}

// IsZero reports whether no quota is declared.
func (l RateLimits) IsZero() bool { return l == RateLimits{} }

// Capacity is how much a model's server can do at once.
type Capacity struct {
	// Concurrent is the most answers in flight on the model; one more is
	// refused with 529 overloaded_error. 0 is no limit.
	Concurrent int `yaml:"concurrent"`
}

// Speed is how long a model's answers take on the virtual clock: the
// first token after FirstToken, then OutputTokensPerSecond. The zero Speed
// answers at once.
type Speed struct {
	FirstToken            Duration `yaml:"first_token"`
	OutputTokensPerSecond int      `yaml:"output_tokens_per_second"`
}

// IsZero reports whether the model answers at once.
func (s Speed) IsZero() bool { return s == Speed{} }

// Duration is how long an answer of output tokens is in flight: the first
// token, then the rest at the declared rate (rounded up to the
// microsecond, so that it is the same on every platform).
func (s Speed) Duration(output int) time.Duration {
	d := s.FirstToken.D()
	if s.OutputTokensPerSecond > 0 && output > 0 {
		us := (int64(output)*1_000_000 + int64(s.OutputTokensPerSecond) - 1) / int64(s.OutputTokensPerSecond)
		d += time.Duration(us) * time.Microsecond
	}
	return d
}

// The ceilings of the quota fields, so that the bucket arithmetic cannot
// overflow and a typo cannot declare a minute-long first token by the
// hour.
const (
	// MaxPerMinute is the largest rpm, itpm or otpm: ten billion.
	MaxPerMinute = 10_000_000_000
	// MaxConcurrent is the largest capacity.concurrent.
	MaxConcurrent = 1_000_000
	// MaxFirstToken is the longest speed.first_token.
	MaxFirstToken = 10 * time.Minute
	// MaxTokensPerSecond is the largest speed.output_tokens_per_second.
	MaxTokensPerSecond = 10_000_000
)

// quota checks a model's limits, capacity and speed.
func (v *validator) quota(path string, m Model) {
	for _, f := range []struct {
		name string
		n    int
	}{{"rpm", m.Limits.RPM}, {"itpm", m.Limits.ITPM}, {"otpm", m.Limits.OTPM}} {
		if f.n < 0 || f.n > MaxPerMinute {
			v.errorf(path+".limits."+f.name, "must be between 0 (no limit) and %d per minute, got %d", MaxPerMinute, f.n)
		}
	}
	if c := m.Capacity.Concurrent; c < 0 || c > MaxConcurrent {
		v.errorf(path+".capacity.concurrent", "must be between 0 (no limit) and %d, got %d", MaxConcurrent, c)
	}
	if ft := m.Speed.FirstToken.D(); ft < 0 || ft > MaxFirstToken {
		v.errorf(path+".speed.first_token", "must be between 0 and %s, got %s", MaxFirstToken, ft)
	}
	if tps := m.Speed.OutputTokensPerSecond; tps < 0 || tps > MaxTokensPerSecond {
		v.errorf(path+".speed.output_tokens_per_second", "must be between 0 (no generation time) and %d, got %d", MaxTokensPerSecond, tps)
	}
}
