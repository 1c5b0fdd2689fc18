package recovery

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RateLimiter configures the rate-limit-aware limiter: a request is held
// (a wait on the engine's clock, cancellable) until the model's buckets,
// as the rate-limit headers of the answers so far describe them, can pay
// for it. Its state is the Engine's, per model, shared by every turn.
//
// It reads, from every answer and every error that carries them, the
// remaining and reset headers of each bucket: Anthropic's
// anthropic-ratelimit-{requests,input-tokens,output-tokens}-{limit,remaining,reset}
// (the reset an RFC 3339 time) and OpenAI's
// x-ratelimit-{limit,remaining,reset}-{requests,tokens} (the reset a
// duration such as "6m0s"). A bucket refills from remaining to full
// (limit) by its reset, so between two answers the limiter counts it up
// along that line, and takes off what each request it releases costs: 1
// request, the counted input from input-tokens, max_tokens from
// output-tokens, and input plus max_tokens from OpenAI's tokens
// (Anthropic's tokens header repeats the tighter of the other two and is
// not read), and holds until the next whole millisecond after the bucket
// has room. Without a limit header it waits for the reset itself. A
// request that costs more than a bucket's limit is never held for it.
//
// It is failsafe-go's ratelimiter turned around: that one refills at a
// rate it is configured with; this one learns the rate from the server.
type RateLimiter struct {
	Enabled bool `yaml:"enabled"`
	// MaxWait bounds how long one request is held in all; 0 means 2 min
	// (a bucket measured per minute is full again within a minute, plus
	// rounding). Past it the request is sent anyway, and the server's
	// answer and the retry policy decide.
	MaxWait time.Duration `yaml:"max_wait"`
}

func (r RateLimiter) maxWait() time.Duration {
	if r.MaxWait <= 0 {
		return 2 * time.Minute
	}
	return r.MaxWait
}

// limiterBucket is one rate-limit bucket of the server's headers.
type limiterBucket struct {
	limit, remaining, reset string
	duration                bool // the reset is a duration, not a time
	need                    func(req Request, input int) float64
}

var limiterBuckets = []limiterBucket{
	{"anthropic-ratelimit-requests-limit", "anthropic-ratelimit-requests-remaining", "anthropic-ratelimit-requests-reset", false, needRequest},
	{"anthropic-ratelimit-input-tokens-limit", "anthropic-ratelimit-input-tokens-remaining", "anthropic-ratelimit-input-tokens-reset", false, needInput},
	{"anthropic-ratelimit-output-tokens-limit", "anthropic-ratelimit-output-tokens-remaining", "anthropic-ratelimit-output-tokens-reset", false, needOutput},
	{"x-ratelimit-limit-requests", "x-ratelimit-remaining-requests", "x-ratelimit-reset-requests", true, needRequest},
	{"x-ratelimit-limit-tokens", "x-ratelimit-remaining-tokens", "x-ratelimit-reset-tokens", true, needTokens},
}

func needRequest(Request, int) float64     { return 1 }
func needInput(_ Request, in int) float64  { return float64(in) }
func needOutput(r Request, _ int) float64  { return float64(r.MaxTokens) }
func needTokens(r Request, in int) float64 { return float64(in + r.MaxTokens) }

// bucketView is what the limiter knows of one bucket: level at time at,
// refilling at rate per nanosecond up to limit (0: unknown), full by full.
type bucketView struct {
	limit float64
	level float64
	at    time.Time
	rate  float64
	full  time.Time
}

// levelAt is the bucket's estimated level at now.
func (b *bucketView) levelAt(now time.Time) float64 {
	if b.limit > 0 && b.rate > 0 && now.After(b.at) {
		return min(b.limit, b.level+b.rate*float64(now.Sub(b.at)))
	}
	if !now.Before(b.full) {
		if b.limit > 0 {
			return b.limit
		}
		return math.Inf(1) // no limit known: open after the reset
	}
	return b.level
}

// waitFor is how long until the bucket holds need, 0 when it does now.
func (b *bucketView) waitFor(need float64, now time.Time) time.Duration {
	if b.limit > 0 && need > b.limit {
		return 0
	}
	lv := b.levelAt(now)
	if lv >= need-levelSlack {
		return 0
	}
	if b.limit > 0 && b.rate > 0 {
		// To the next whole millisecond: a server that counts its refill
		// in whole microseconds, or milliseconds, has then refilled.
		d := time.Duration(math.Ceil((need - lv) / b.rate))
		return d.Truncate(time.Millisecond) + time.Millisecond
	}
	return max(b.full.Sub(now), time.Millisecond)
}

// levelSlack absorbs the rounding of a refill computed in floating point,
// so that a wait computed to the nanosecond is enough when it ends.
const levelSlack = 1e-6

// rateLimiter is the limiter's state, per model and bucket.
type rateLimiter struct {
	mu     sync.Mutex
	models map[string]map[string]*bucketView
}

// observe reads the headers of an answer for model, received at now.
func (l *rateLimiter) observe(model string, h http.Header, now time.Time) {
	if h == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, lb := range limiterBuckets {
		rem, err := strconv.ParseFloat(strings.TrimSpace(h.Get(lb.remaining)), 64)
		if err != nil || rem < 0 {
			continue
		}
		resetIn, ok := parseReset(strings.TrimSpace(h.Get(lb.reset)), lb.duration, now)
		if !ok {
			continue
		}
		lim, err := strconv.ParseFloat(strings.TrimSpace(h.Get(lb.limit)), 64)
		if err != nil || lim < rem {
			lim = 0
		}
		if l.models == nil {
			l.models = map[string]map[string]*bucketView{}
		}
		if l.models[model] == nil {
			l.models[model] = map[string]*bucketView{}
		}
		b := &bucketView{limit: lim, level: rem, at: now, full: now.Add(resetIn)}
		if lim > rem && resetIn > 0 {
			b.rate = (lim - rem) / float64(resetIn)
		} else if old := l.models[model][lb.remaining]; old != nil {
			b.rate = old.rate // a full bucket tells no rate: keep the one learnt
		}
		l.models[model][lb.remaining] = b
	}
}

// reserve takes what req costs from every bucket of its model and returns
// 0, or takes nothing and returns how long until the tightest bucket can
// pay, with that bucket's name.
func (l *rateLimiter) reserve(req Request, input int, now time.Time) (time.Duration, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	bs := l.models[req.Model]
	var wait time.Duration
	var which string
	for _, lb := range limiterBuckets {
		if b := bs[lb.remaining]; b != nil {
			if d := b.waitFor(lb.need(req, input), now); d > wait {
				wait, which = d, lb.remaining
			}
		}
	}
	if wait > 0 {
		return wait, which
	}
	l.takeLocked(req, input, now)
	return 0, ""
}

// force takes what req costs whatever the buckets hold: a request sent
// after the longest hold.
func (l *rateLimiter) force(req Request, input int, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.takeLocked(req, input, now)
}

func (l *rateLimiter) takeLocked(req Request, input int, now time.Time) {
	for _, lb := range limiterBuckets {
		if b := l.models[req.Model][lb.remaining]; b != nil {
			b.level = b.levelAt(now) - lb.need(req, input)
			if b.at.Before(now) {
				b.at = now
			}
		}
	}
}
