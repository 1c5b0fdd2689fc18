package mockllm

import (
	"sync"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// The prompt cache (docs/cost.md). A scenario's models that declare a
// cache keep the prefixes of the prompts they answered, keyed as
// internal/wire/prefix.go keys them, each with the time it expires on the
// clock of the sessions that share it: the scenario's sessions in serve
// (one organisation's cache, on the real clock), a fleet's, or the one
// session the harness opens for a run (on its virtual clock). It lives
// beside the quotas and is shared as they are.
//
// On the Anthropic wire a request caches nothing it does not mark: the
// answer reads the longest cached prefix that ends at a breakpoint or at
// one of the LookbackBlocks block boundaries before one, then writes the
// prefix up to each later breakpoint, billed at the lifetime that
// breakpoint asks (5 minutes or an hour); a hit makes its prefix live
// its lifetime again from now. On OpenAI's wires (Spec.CacheAuto) every
// prompt's prefixes at its last LookbackBlocks message boundaries are
// cached for 5 minutes, refreshed on a hit, with no write fee, and a hit
// reads its tokens rounded down to a multiple of 128. A prefix shorter
// than the model's min_tokens is never cached. A prefix can be read once
// the answer that wrote it has begun (after the model's first_token):
// requests sent together all miss, and all write.

// maxCacheEntries bounds the prefixes one model's cache keeps: a new one
// past it first drops the expired ones, then the one that expires first.
const maxCacheEntries = 4096

// openAITTL is how long an OpenAI prefix stays cached after its last
// use; openAIChunk the granularity of a hit.
const (
	openAITTL   = 5 * time.Minute
	openAIChunk = 128
)

// promptCache is the caches of a scenario's models, nil when none
// declares one.
type promptCache struct {
	mu     sync.Mutex
	models map[string]*modelCache
}

// modelCache is one model's cached prefixes.
type modelCache struct {
	min     int
	seq     uint64
	entries map[uint64]*cacheEntry
}

type cacheEntry struct {
	tokens  int
	ttl     time.Duration
	expires time.Time
	// from is when the entry can be read: once the answer that wrote it
	// has begun (its first token), as the real API serves a prefix only
	// after the first response that caches it starts; concurrent
	// requests before then miss.
	from time.Time
	seq  uint64 // when it was written: ties of expires drop the oldest
}

// cacheUse is what an answer read from and wrote to the cache.
type cacheUse struct {
	Read, Write5m, Write1h int
}

func newPromptCache(sc *scenario.Scenario) *promptCache {
	var c *promptCache
	for name, m := range sc.Models {
		if !m.Cache.On() {
			continue
		}
		if c == nil {
			c = &promptCache{models: map[string]*modelCache{}}
		}
		c.models[name] = &modelCache{min: m.Cache.Min(), entries: map[uint64]*cacheEntry{}}
	}
	return c
}

// on reports whether model caches.
func (c *promptCache) on(model string) bool { return c != nil && c.models[model] != nil }

// reset forgets every prefix.
func (c *promptCache) reset() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, mc := range c.models {
		clear(mc.entries)
	}
}

// use answers a request for model with prefix p at now, whose answer
// begins at start: what it reads and writes. With miss (a rule's cache:
// miss) it reads nothing.
func (c *promptCache) use(model string, p *wire.Prefix, auto, miss bool, now, start time.Time) cacheUse {
	if !c.on(model) {
		return cacheUse{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	mc := c.models[model]
	if auto {
		return mc.auto(p, miss, now, start)
	}
	return mc.marked(p, miss, now, start)
}

// hit is the longest live entry among the points of at most limit
// tokens (and at least the model's minimum), or nil.
func (mc *modelCache) hit(points []wire.Point, limit int, now time.Time) *cacheEntry {
	for _, pt := range points { // longest first
		if pt.Tokens > limit || pt.Tokens < mc.min {
			continue
		}
		if e := mc.entries[pt.Key]; e != nil && e.expires.After(now) && !now.Before(e.from) && e.tokens == pt.Tokens {
			return e
		}
	}
	return nil
}

// marked is Anthropic's cache: only the breakpoints write.
func (mc *modelCache) marked(p *wire.Prefix, miss bool, now, start time.Time) cacheUse {
	var u cacheUse
	if len(p.Marked) == 0 {
		return u
	}
	last := p.Marked[len(p.Marked)-1].Tokens
	if e := mc.hit(p.Bounds, last, now); e != nil && !miss {
		u.Read = e.tokens
		e.expires = now.Add(e.ttl)
	}
	done := u.Read
	for _, m := range p.Marked { // in prompt order
		if m.Tokens <= done || m.Tokens < mc.min {
			continue
		}
		if m.TTL >= time.Hour {
			u.Write1h += m.Tokens - done
		} else {
			u.Write5m += m.Tokens - done
		}
		done = m.Tokens
		mc.put(m.Key, m.Tokens, m.TTL, now, start)
	}
	return u
}

// auto is OpenAI's cache: every prefix is kept, and a hit is free of a
// write.
func (mc *modelCache) auto(p *wire.Prefix, miss bool, now, start time.Time) cacheUse {
	var u cacheUse
	if e := mc.hit(p.Bounds, int(^uint(0)>>1), now); e != nil && !miss {
		u.Read = e.tokens / openAIChunk * openAIChunk
		e.expires = now.Add(e.ttl)
	}
	for _, b := range p.Bounds {
		if b.Tokens >= mc.min {
			mc.put(b.Key, b.Tokens, openAITTL, now, start)
		}
	}
	return u
}

// put writes (or renews) a prefix, readable from start.
func (mc *modelCache) put(key uint64, tokens int, ttl time.Duration, now, start time.Time) {
	mc.seq++
	if e := mc.entries[key]; e != nil {
		if !e.expires.After(now) { // expired: written anew
			e.from = start
		}
		e.tokens, e.ttl, e.expires, e.seq = tokens, ttl, now.Add(ttl), mc.seq
		return
	}
	if len(mc.entries) >= maxCacheEntries {
		mc.evict(now)
	}
	mc.entries[key] = &cacheEntry{tokens: tokens, ttl: ttl, expires: now.Add(ttl), from: start, seq: mc.seq}
}

// evict drops the expired prefixes, or else the one that expires first.
func (mc *modelCache) evict(now time.Time) {
	var first uint64
	var fe *cacheEntry
	for k, e := range mc.entries {
		if !e.expires.After(now) {
			delete(mc.entries, k)
			continue
		}
		if fe == nil || e.expires.Before(fe.expires) || (e.expires.Equal(fe.expires) && e.seq < fe.seq) {
			first, fe = k, e
		}
	}
	if len(mc.entries) >= maxCacheEntries && fe != nil {
		delete(mc.entries, first)
	}
}
