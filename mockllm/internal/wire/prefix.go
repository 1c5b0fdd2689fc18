package wire

import "time"

// A prompt cache keys a request's prompt prefix: the tools, then the
// system prompt, then the messages, in that order whatever the order of
// the body's keys. The decoders read a request into segments of that
// order (tools, system, messages) and hash each piece of a segment as
// they walk it: a whole tool list, a system text, a message (OpenAI:
// its raw JSON, so an exact prefix is byte for byte the same) or a
// content block (Anthropic: each of its fields but cache_control, which
// marks the prompt and is no part of it). A prefix's key is the hash of
// the segments before its own, whole, and of its own segment up to it.
// The decoder keeps, of the body, only what the cache asks: the
// breakpoints the request marks (Anthropic's cache_control, at most
// MaxMarks) and the boundaries of its last LookbackBlocks pieces before
// each mark and before the end (the points where a cached prefix may
// end), never the texts.

// The segments of a prompt, in prompt order.
const (
	SegTools = iota
	SegSystem
	SegMessages
	segments
)

// LookbackBlocks is how many block boundaries before a breakpoint a
// cache looks at for an earlier prefix (Anthropic checks about 20).
const LookbackBlocks = 20

// MaxMarks is how many cache_control breakpoints a request may mark
// (Anthropic: 4); the decoder counts more and keeps MaxMarks+1.
const MaxMarks = 4

// Point is one place a cached prefix may end: its key, its tokens (the
// input from the start of the prompt through it), and, for a breakpoint,
// the lifetime it asks.
type Point struct {
	Key    uint64
	Tokens int
	TTL    time.Duration
}

// point is a Point before the segments' totals are known.
type point struct {
	seg    int
	h      uint64
	tokens int // within its segment
	ttl    time.Duration
}

// mark is a breakpoint and the boundaries that precede it.
type mark struct {
	at       point
	lookback []point
}

// Prefix gathers a request's cache points as the decoder walks it.
type Prefix struct {
	// On asks the decoder to gather (the scenario has a model that
	// caches); a request decoded without it has no points.
	On bool
	// Marks counts the breakpoints the request marked.
	Marks int
	seg   int
	h     [segments]uint64
	tok   [segments]int
	ring  []point // the latest boundaries of the current segment
	marks []mark
	// Marked (Resolve) are the breakpoints, in prompt order; Bounds the
	// boundaries before them and before the end, longest first.
	Marked []Point
	Bounds []Point
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// mix folds b into h (FNV-1a).
func mix(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

// mixWord folds a number into h.
func mixWord(h, w uint64) uint64 {
	for i := 0; i < 8; i++ {
		h ^= w & 0xff
		h *= fnvPrime
		w >>= 8
	}
	return h
}

// Begin starts segment seg afresh (the last of a repeated key wins).
func (p *Prefix) Begin(seg int) {
	if !p.On {
		return
	}
	p.seg, p.h[seg], p.tok[seg], p.ring = seg, fnvOffset, 0, p.ring[:0]
	kept := p.marks[:0]
	for _, m := range p.marks {
		if m.at.seg != seg {
			kept = append(kept, m)
		}
	}
	p.marks = kept
}

// Add folds a piece of the current segment into it: its hash and its
// tokens. With boundary, the prefix may end after it.
func (p *Prefix) Add(h uint64, tokens int, boundary bool) {
	if !p.On {
		return
	}
	p.h[p.seg] = mixWord(p.h[p.seg], h)
	p.tok[p.seg] += tokens
	if boundary {
		p.bound()
	}
}

// bound notes the current point as a boundary, keeping the latest
// LookbackBlocks.
func (p *Prefix) bound() {
	pt := point{seg: p.seg, h: p.h[p.seg], tokens: p.tok[p.seg]}
	if n := len(p.ring); n > 0 && p.ring[n-1] == pt {
		return
	}
	if len(p.ring) == LookbackBlocks {
		copy(p.ring, p.ring[1:])
		p.ring = p.ring[:LookbackBlocks-1]
	}
	p.ring = append(p.ring, pt)
}

// Mark notes a breakpoint at the current point, with its lifetime.
func (p *Prefix) Mark(ttl time.Duration) {
	if !p.On {
		return
	}
	p.Marks++
	if len(p.marks) > MaxMarks {
		return
	}
	p.bound()
	at := p.ring[len(p.ring)-1]
	at.ttl = ttl
	p.marks = append(p.marks, mark{at: at, lookback: append([]point(nil), p.ring[:len(p.ring)-1]...)})
}

// Resolve turns what was gathered into Marked and Bounds, once every
// segment is whole.
func (p *Prefix) Resolve() {
	if !p.On {
		return
	}
	var base [segments]uint64 // the key of the segments before each, whole
	var before [segments]int  // their tokens
	for seg := 0; seg < segments; seg++ {
		if p.h[seg] == 0 {
			p.h[seg] = fnvOffset
		}
	}
	acc, toks := uint64(fnvOffset), 0
	for seg := 0; seg < segments; seg++ {
		base[seg], before[seg] = acc, toks
		acc = mixWord(mixWord(acc, uint64(seg)), p.h[seg])
		toks += p.tok[seg]
	}
	resolve := func(pt point) Point {
		return Point{Key: mixWord(mixWord(base[pt.seg], uint64(pt.seg)), pt.h), Tokens: before[pt.seg] + pt.tokens, TTL: pt.ttl}
	}
	p.Marked, p.Bounds = p.Marked[:0], p.Bounds[:0]
	seen := map[uint64]bool{}
	add := func(pt point) {
		r := resolve(pt)
		if !seen[r.Key] {
			seen[r.Key] = true
			p.Bounds = append(p.Bounds, r)
		}
	}
	for _, m := range p.marks {
		p.Marked = append(p.Marked, resolve(m.at))
		add(m.at)
		for _, b := range m.lookback {
			add(b)
		}
	}
	for _, b := range p.ring {
		add(b)
	}
	sortPoints(p.Marked, false)
	sortPoints(p.Bounds, true)
}

// sortPoints orders points by tokens (desc: longest first); a few dozen,
// so an insertion sort.
func sortPoints(ps []Point, desc bool) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0; j-- {
			a, b := ps[j-1], ps[j]
			if (!desc && a.Tokens <= b.Tokens) || (desc && a.Tokens >= b.Tokens) {
				break
			}
			ps[j-1], ps[j] = b, a
		}
	}
}

// Hash is the hash of b alone, for Add.
func Hash(b []byte) uint64 { return mix(fnvOffset, b) }

// Hasher hashes a piece made of several fields.
type Hasher struct{ h uint64 }

// NewHasher is an empty Hasher.
func NewHasher() Hasher { return Hasher{fnvOffset} }

// Field folds a field's key and raw value in.
func (x *Hasher) Field(key, raw []byte) {
	x.h = mixWord(mix(x.h, key), uint64(len(raw)))
	x.h = mix(x.h, raw)
}

// Word folds a number in.
func (x *Hasher) Word(w uint64) { x.h = mixWord(x.h, w) }

// Sum is the hash so far.
func (x *Hasher) Sum() uint64 { return x.h }
