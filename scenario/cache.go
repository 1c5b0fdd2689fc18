package scenario

import "fmt"

// Cache is a model's prompt cache in the mock (docs/cost.md): declared,
// the mock caches the model's prompt prefixes as the real API of each
// wire does (Anthropic: up to each cache_control breakpoint; OpenAI: any
// exact prefix), shared by the sessions that share the model's quotas.
// A model without one caches nothing, and its answers report no cached
// tokens.
type Cache struct {
	// Enabled turns the cache off when false; a declared cache is on.
	Enabled *bool `yaml:"enabled"`
	// MinTokens is the shortest prefix the model caches; 0 means 1,024
	// (the real APIs' minimum for most models: Anthropic's ranges from
	// 1,024 to 4,096 by model, OpenAI's is 1,024).
	MinTokens int `yaml:"min_tokens"`
}

// DefaultCacheMinTokens is the shortest prefix a cache keeps when its
// min_tokens is 0.
const DefaultCacheMinTokens = 1024

// On reports whether the cache is declared and not turned off.
func (c *Cache) On() bool { return c != nil && (c.Enabled == nil || *c.Enabled) }

// Min is the shortest prefix the cache keeps.
func (c *Cache) Min() int {
	if c == nil || c.MinTokens <= 0 {
		return DefaultCacheMinTokens
	}
	return c.MinTokens
}

// Price is what a model's tokens cost, in dollars per million tokens
// (docs/cost.md): input not read from the cache, output, a cache write
// of the 5-minute and of the 1-hour lifetime, and a cache read. A write
// or read price of 0 takes the multiple of Input the Anthropic price list
// gives (1.25×, 2×, 0.1×); set cache_read to the discount an OpenAI
// model has. A write costs nothing on OpenAI's wires, which never write.
type Price struct {
	Input        float64 `yaml:"input"`
	Output       float64 `yaml:"output"`
	CacheWrite5m float64 `yaml:"cache_write_5m"`
	CacheWrite1h float64 `yaml:"cache_write_1h"`
	CacheRead    float64 `yaml:"cache_read"`
}

// The multiples of the input price a cache write or read costs when a
// price leaves it 0 (Anthropic's price list).
const (
	Write5mMultiple = 1.25
	Write1hMultiple = 2
	ReadMultiple    = 0.1
)

// Resolved is p with its zero cache prices filled from Input.
func (p Price) Resolved() Price {
	if p.CacheWrite5m == 0 {
		p.CacheWrite5m = p.Input * Write5mMultiple
	}
	if p.CacheWrite1h == 0 {
		p.CacheWrite1h = p.Input * Write1hMultiple
	}
	if p.CacheRead == 0 {
		p.CacheRead = p.Input * ReadMultiple
	}
	return p
}

// CacheMiss is respond.cache's value that makes the answer miss the
// cache: it reads nothing, and writes what it marks, as the real APIs'
// misses do.
const CacheMiss = "miss"

// The ceilings of the cost fields.
const (
	// MaxPrice is the largest price per million tokens.
	MaxPrice = 10_000
	// MaxCacheMinTokens is the largest cache.min_tokens.
	MaxCacheMinTokens = MaxTokens
)

// cost checks a model's cache and price.
func (v *validator) cost(path string, m Model) {
	if c := m.Cache; c != nil && (c.MinTokens < 0 || c.MinTokens > MaxCacheMinTokens) {
		v.errorf(path+".cache.min_tokens", "must be between 0 (1,024) and %d, got %d", MaxCacheMinTokens, c.MinTokens)
	}
	if p := m.Price; p != nil {
		v.price(path+".price", *p)
	}
}

// price checks that every price of p is a number between 0 and MaxPrice.
func (v *validator) price(path string, p Price) {
	for _, f := range []struct {
		name string
		x    float64
	}{{"input", p.Input}, {"output", p.Output}, {"cache_write_5m", p.CacheWrite5m}, {"cache_write_1h", p.CacheWrite1h}, {"cache_read", p.CacheRead}} {
		if !(f.x >= 0 && f.x <= MaxPrice) {
			v.errorf(joinPath(path, f.name), "must be between 0 and %d dollars per million tokens, got %s", MaxPrice, fmt.Sprint(f.x))
		}
	}
}

// priced reports whether any model of s has a price.
func priced(s *Scenario) bool {
	for _, m := range s.Models {
		if m.Price != nil {
			return true
		}
	}
	return false
}
