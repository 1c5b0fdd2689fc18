package recovery

import (
	"fmt"
	"time"
)

// PromptCache is how a strategy marks its prompt for the provider's
// prompt cache, as real agents do (docs/cost.md): each Breakpoint names a
// place the prefix up to which the provider should cache, with the
// lifetime TTL. The engine hands it to the provider with every request
// (Request.Cache); a provider whose API caches by itself (OpenAI's)
// ignores it, and one whose API wants marks (Anthropic's cache_control)
// sends them. The zero PromptCache marks nothing.
type PromptCache struct {
	Breakpoints []Breakpoint `yaml:"breakpoints,flow"`
	// TTL is the lifetime asked: CacheTTL5m (0 means it) or CacheTTL1h.
	TTL time.Duration `yaml:"ttl"`
}

// Breakpoint names a place in the prompt a cached prefix ends.
type Breakpoint string

// The breakpoints a strategy may mark.
const (
	// BreakpointSystem: the end of the system prompt.
	BreakpointSystem Breakpoint = "system"
	// BreakpointLastUser: the end of the last user message (the newest
	// turn, so that the next request reads the whole history before it).
	BreakpointLastUser Breakpoint = "last_user"
)

// The lifetimes a cache breakpoint may ask.
const (
	CacheTTL5m = 5 * time.Minute
	CacheTTL1h = time.Hour
)

// On reports whether c marks anything.
func (c PromptCache) On() bool { return len(c.Breakpoints) > 0 }

// Has reports whether c marks b.
func (c PromptCache) Has(b Breakpoint) bool {
	for _, x := range c.Breakpoints {
		if x == b {
			return true
		}
	}
	return false
}

// Lifetime is the lifetime c asks: TTL, or 5 minutes when it is 0.
func (c PromptCache) Lifetime() time.Duration {
	if c.TTL == 0 {
		return CacheTTL5m
	}
	return c.TTL
}

// ParseBreakpoint reads a breakpoint's name.
func ParseBreakpoint(s string) (Breakpoint, error) {
	switch b := Breakpoint(s); b {
	case BreakpointSystem, BreakpointLastUser:
		return b, nil
	}
	return "", fmt.Errorf("%q is not a cache breakpoint; use %s or %s", s, BreakpointSystem, BreakpointLastUser)
}

// Marked is msgs with the breakpoint c puts in them set (Message.Cache):
// the last user message's, when c marks last_user. msgs is not changed;
// the copy shares its messages' contents.
func (c PromptCache) Marked(msgs []Message) []Message {
	if !c.Has(BreakpointLastUser) {
		return msgs
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			out := append([]Message(nil), msgs...)
			out[i].Cache = c.Lifetime()
			return out
		}
	}
	return msgs
}
