package mockllm

import (
	"slices"
	"sync"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/bucket"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// quotas are the rate-limit buckets and the capacity of a scenario's
// models, as one organisation's key sees them: shared by every session of
// the scenario in `serve`, owned by one session when the harness opens it
// (each run has its own clock, and buckets live on a clock). Sessions
// call them under their own lock; quotas lock themselves, after.
type quotas struct {
	sc     *scenario.Scenario
	mu     sync.Mutex
	models map[string]*modelQuota // models with limits or capacity
	// cache is the models' prompt cache (cache.go), shared as the
	// buckets are; nil when no model declares one.
	cache *promptCache
}

// modelQuota is one model's buckets (nil: not declared) and the ends of
// its answers in flight.
type modelQuota struct {
	name            string
	rpm, itpm, otpm *bucket.Bucket
	concurrent      int
	inFlight        []time.Time // ends of admitted answers, in no order
	maxOutput       int
}

func newQuotas(sc *scenario.Scenario) *quotas {
	q := &quotas{sc: sc, cache: newPromptCache(sc)}
	q.reset()
	return q
}

// reset refills every bucket. The answers in flight stay in flight: a
// reset clears the journal and the quotas, it does not end answers that
// are still being sent, so capacity holds across it.
func (q *quotas) reset() {
	q.cache.reset()
	q.mu.Lock()
	defer q.mu.Unlock()
	old := q.models
	q.models = make(map[string]*modelQuota)
	for name, m := range q.sc.Models {
		if m.Limits.IsZero() && m.Capacity.Concurrent == 0 {
			continue
		}
		mq := &modelQuota{name: name, concurrent: m.Capacity.Concurrent, maxOutput: m.MaxOutput}
		if o := old[name]; o != nil {
			mq.inFlight = o.inFlight
		}
		if m.Limits.RPM > 0 {
			mq.rpm = bucket.New(m.Limits.RPM)
		}
		if m.Limits.ITPM > 0 {
			mq.itpm = bucket.New(m.Limits.ITPM)
		}
		if m.Limits.OTPM > 0 {
			mq.otpm = bucket.New(m.Limits.OTPM)
		}
		q.models[name] = mq
	}
}

// ticket is an admitted request's output reservation, settled when its
// answer ends.
type ticket struct {
	mq       *modelQuota
	reserved int64
}

// admit decides, at now, whether a request for model with input tokens and
// an output budget of maxTokens (0: the model's max_output) may be
// answered: capacity first (a 529 when the model has its concurrent
// answers in flight), then every bucket, which must all be able to pay
// (a 429 naming the limit that waits longest, with retry-after). An
// admitted request pays 1 request and its input, and reserves maxTokens of
// output; the ticket settles that. A model without quotas admits anything
// with a nil ticket.
func (q *quotas) admit(api wire.Wire, model, requestID string, input, maxTokens int, now time.Time) (*ticket, *wire.Error, time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	mq := q.models[model]
	if mq == nil {
		return nil, nil, 0
	}
	if mq.concurrent > 0 {
		mq.inFlight = slices.DeleteFunc(mq.inFlight, func(end time.Time) bool { return !end.After(now) })
		if len(mq.inFlight) >= mq.concurrent {
			return nil, api.Scripted(wire.Scripted{Status: 529, Model: model, RequestID: requestID}), 0
		}
	}
	if maxTokens <= 0 {
		maxTokens = mq.maxOutput
	}
	asks := mq.asks(input, maxTokens)
	var worst *ask
	var wait time.Duration
	for i := range asks {
		a := &asks[i]
		if a.b == nil {
			continue
		}
		a.b.Advance(now)
		if d := a.b.Wait(a.n); !a.b.CanPay(a.n) && (worst == nil || d > wait) {
			worst, wait = a, d
		}
	}
	if worst != nil {
		secs := (wait + time.Second - 1) / time.Second
		e := api.Refused(worst.refusal(model))
		e.Bucket = worst.name // the headers of the 429 tell of this bucket (wire.Rates.Refused)
		return nil, e, secs * time.Second
	}
	for _, a := range asks {
		if a.b != nil {
			a.b.Pay(a.n)
		}
	}
	return &ticket{mq: mq, reserved: int64(maxTokens)}, nil, 0
}

// settle ends an admitted answer at end, which used output tokens: the
// unused reservation returns to the output bucket then, and the answer is
// in flight until then.
func (q *quotas) settle(t *ticket, output int, end time.Time) {
	if t == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if t.mq.otpm != nil {
		t.mq.otpm.Settle(t.reserved-int64(output), end)
	}
	if t.mq.concurrent > 0 {
		t.mq.inFlight = append(t.mq.inFlight, end)
	}
}

// ask is what one bucket is asked to pay, and how the limit is named.
type ask struct {
	b      *bucket.Bucket
	n      int64
	name   string // wire.BucketRequests, BucketInput, BucketOutput
	what   string // "requests", "input tokens", "output tokens"
	tokens bool   // the limit counts tokens, not requests
}

func (mq *modelQuota) asks(input, maxTokens int) [3]ask {
	return [3]ask{
		{b: mq.rpm, n: 1, name: wire.BucketRequests, what: "requests"},
		{b: mq.itpm, n: int64(input), name: wire.BucketInput, what: "input tokens", tokens: true},
		{b: mq.otpm, n: int64(maxTokens), name: wire.BucketOutput, what: "output tokens", tokens: true},
	}
}

// refusal is the bucket of a that cannot pay, for the wire to word its 429.
func (a *ask) refusal(model string) wire.Refusal {
	limit := a.b.Limit()
	return wire.Refusal{
		Model: model, What: a.what, Tokens: a.tokens,
		Limit: limit, Used: limit - a.b.Remaining(), Asked: a.n, Wait: a.b.Wait(a.n),
	}
}

// state reads a model's buckets at now, after what this request paid; nil
// for a model without limits.
func (q *quotas) state(model string, now time.Time) *wire.Rates {
	q.mu.Lock()
	defer q.mu.Unlock()
	mq := q.models[model]
	if mq == nil || (mq.rpm == nil && mq.itpm == nil && mq.otpm == nil) {
		return nil
	}
	rs := &wire.Rates{Now: now}
	for _, p := range []struct {
		b  *bucket.Bucket
		ls *wire.Limit
	}{{mq.rpm, &rs.Requests}, {mq.itpm, &rs.Input}, {mq.otpm, &rs.Output}} {
		if p.b != nil {
			p.b.Advance(now)
			*p.ls = wire.Limit{Limit: p.b.Limit(), Remaining: p.b.Remaining(), Reset: p.b.UntilFull()}
		}
	}
	return rs
}
