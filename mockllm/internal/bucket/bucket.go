package bucket

import (
	"slices"
	"time"
)

// minuteUS is a minute in microseconds: the bucket's unit of refill.
const minuteUS = int64(time.Minute / time.Microsecond)

// Bucket is a token bucket as the real API describes its rate limits: it
// holds up to limit tokens, refills continuously at limit per minute, and
// starts full. It is told the time (the session's clock) and never reads
// one, so it runs on virtual time.
//
// It is not golang.org/x/time/rate's Limiter: settling an output
// reservation returns its unused part when the answer ends, after the
// reservation's time has passed, and a Limiter can only cancel a
// reservation whole and only before its time. The level is kept in
// integers, tokens × minuteUS, and the refill counted in whole
// microseconds with the remainder carried, so the same times give the same
// state on every platform whatever was read in between.
type Bucket struct {
	limit   int64     // tokens per minute, and the capacity
	level   int64     // tokens × minuteUS
	last    time.Time // the time level is at; zero until first use
	refunds []refund  // settlements due, by time
}

// refund is unused output reservation that returns at a time.
type refund struct {
	at     time.Time
	tokens int64
}

// New is a full bucket of limit tokens a minute.
func New(limit int) *Bucket {
	l := int64(limit)
	return &Bucket{limit: l, level: l * minuteUS}
}

// Advance brings the bucket to t: the refunds due by then, each at its
// time, and the refill. A t before the bucket's time changes nothing.
func (b *Bucket) Advance(t time.Time) {
	if b.last.IsZero() {
		b.last = t
	}
	for len(b.refunds) > 0 && !b.refunds[0].at.After(t) {
		r := b.refunds[0]
		b.refunds = b.refunds[1:]
		b.fill(r.at)
		b.add(b.clamp(r.tokens) * minuteUS)
		if b.full() && r.at.After(b.last) {
			b.last = r.at
		}
	}
	b.fill(t)
}

// fill refills from b.last to t in whole microseconds; a full bucket's
// time is t, since the remainder no longer matters.
func (b *Bucket) fill(t time.Time) {
	if !t.After(b.last) {
		return
	}
	us := int64(t.Sub(b.last) / time.Microsecond)
	if us >= minuteUS {
		b.level = b.limit * minuteUS
	} else {
		b.add(us * b.limit)
		b.last = b.last.Add(time.Duration(us) * time.Microsecond)
	}
	if b.full() {
		b.last = t
	}
}

func (b *Bucket) add(n int64) { b.level = min(b.level+n, b.limit*minuteUS) }

func (b *Bucket) full() bool { return b.level == b.limit*minuteUS }

// clamp bounds a count to limit+1, which no bucket can pay, so that the
// arithmetic stays far from overflow whatever a request asks.
func (b *Bucket) clamp(n int64) int64 { return min(max(n, 0), b.limit+1) }

// CanPay reports whether n tokens are there now (after Advance).
func (b *Bucket) CanPay(n int64) bool { return b.level >= b.clamp(n)*minuteUS }

// Pay takes n tokens; the caller has checked CanPay.
func (b *Bucket) Pay(n int64) { b.level -= b.clamp(n) * minuteUS }

// Settle returns n tokens at time at (an answer's end): at once when at is
// not after the bucket's time.
func (b *Bucket) Settle(n int64, at time.Time) {
	if n <= 0 {
		return
	}
	if !at.After(b.last) {
		b.add(b.clamp(n) * minuteUS)
		return
	}
	i, _ := slices.BinarySearchFunc(b.refunds, at, func(r refund, t time.Time) int {
		if r.at.After(t) {
			return 1
		}
		return -1 // after every refund due at the same time: first due, first back
	})
	b.refunds = slices.Insert(b.refunds, i, refund{at: at, tokens: n})
}

// Remaining is the whole tokens in the bucket now.
func (b *Bucket) Remaining() int64 { return max(b.level, 0) / minuteUS }

// Wait is how long the refill alone takes to hold n tokens (n above the
// limit: to fill up), rounded up to the microsecond; 0 when they are
// there.
func (b *Bucket) Wait(n int64) time.Duration {
	need := min(b.clamp(n), b.limit)*minuteUS - b.level
	if need <= 0 {
		return 0
	}
	return time.Duration((need+b.limit-1)/b.limit) * time.Microsecond
}

// UntilFull is how long the refill takes to fill the bucket.
func (b *Bucket) UntilFull() time.Duration { return b.Wait(b.limit) }

// Limit is the bucket's tokens per minute, which is also what it holds
// when full.
func (b *Bucket) Limit() int64 { return b.limit }
