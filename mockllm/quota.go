package mockllm

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/bucket"
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
	q := &quotas{sc: sc}
	q.reset()
	return q
}

// reset refills every bucket. The answers in flight stay in flight: a
// reset clears the journal and the quotas, it does not end answers that
// are still being sent, so capacity holds across it.
func (q *quotas) reset() {
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
func (q *quotas) admit(wr wire, model, requestID string, input, maxTokens int, now time.Time) (*ticket, *apiError, time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	mq := q.models[model]
	if mq == nil {
		return nil, nil, 0
	}
	if mq.concurrent > 0 {
		mq.inFlight = slices.DeleteFunc(mq.inFlight, func(end time.Time) bool { return !end.After(now) })
		if len(mq.inFlight) >= mq.concurrent {
			return nil, scripted(wr, 529, "", "", model, 0, requestID), 0
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
		return nil, refused(wr, model, worst, mq), secs * time.Second
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
	what   string // "requests", "input tokens", "output tokens"
	openai string // OpenAI's name of the limit: "requests" or "tokens"
}

func (mq *modelQuota) asks(input, maxTokens int) [3]ask {
	return [3]ask{
		{b: mq.rpm, n: 1, what: "requests", openai: "requests"},
		{b: mq.itpm, n: int64(input), what: "input tokens", openai: "tokens"},
		{b: mq.otpm, n: int64(maxTokens), what: "output tokens", openai: "tokens"},
	}
}

// refused is the 429 of a bucket that cannot pay, worded as the wire's
// real API words it.
func refused(wr wire, model string, a *ask, mq *modelQuota) *apiError {
	limit := a.b.Limit()
	if wr.openai() {
		used := limit - a.b.Remaining()
		e := &apiError{status: http.StatusTooManyRequests, typ: a.openai, code: "rate_limit_exceeded", kind: kindRateLimit}
		e.msg = fmt.Sprintf("Rate limit reached for %s in organization org-faultbench on %s per min (%s): "+
			"Limit %d, Used %d, Requested %d. Please try again in %s. Visit https://platform.openai.com/account/rate-limits to learn more.",
			model, a.openai, openaiAbbrev(a.openai), limit, used, a.n, waitText(a.b.Wait(a.n).Round(time.Millisecond)))
		return e
	}
	return &apiError{
		status: http.StatusTooManyRequests, typ: "rate_limit_error", kind: kindRateLimit,
		msg: fmt.Sprintf("This request would exceed your organization's rate limit of %s %s per minute (model: %s). "+
			"For details, refer to: https://docs.claude.com/en/api/rate-limits. "+
			"You can see the response headers for current usage. Please try again later.", grouped(limit), a.what, model),
	}
}

// openaiAbbrev is OpenAI's short name of a per-minute limit: RPM, or TPM
// for tokens, input and output alike.
func openaiAbbrev(what string) string {
	if what == "tokens" {
		return "TPM"
	}
	return "RPM"
}

// grouped writes n with thousands separators, as the real API's messages do.
func grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// limitState is one bucket as the headers show it.
type limitState struct {
	limit, remaining int64
	reset            time.Duration // until the bucket is full again
}

// rateState is a model's buckets as an answer's headers show them; a
// zero limit is a bucket the model does not declare.
type rateState struct {
	now                     time.Time
	requests, input, output limitState
}

// state reads a model's buckets at now, after what this request paid; nil
// for a model without limits.
func (q *quotas) state(model string, now time.Time) *rateState {
	q.mu.Lock()
	defer q.mu.Unlock()
	mq := q.models[model]
	if mq == nil || (mq.rpm == nil && mq.itpm == nil && mq.otpm == nil) {
		return nil
	}
	rs := &rateState{now: now}
	for _, p := range []struct {
		b  *bucket.Bucket
		ls *limitState
	}{{mq.rpm, &rs.requests}, {mq.itpm, &rs.input}, {mq.otpm, &rs.output}} {
		if p.b != nil {
			p.b.Advance(now)
			*p.ls = limitState{limit: p.b.Limit(), remaining: p.b.Remaining(), reset: p.b.UntilFull()}
		}
	}
	return rs
}

// tokens is the more restrictive of the two token buckets: the one with
// fewer tokens left (input on a tie); zero when neither is declared.
func (rs *rateState) tokens() limitState {
	switch {
	case rs.input.limit == 0:
		return rs.output
	case rs.output.limit == 0:
		return rs.input
	case rs.output.remaining < rs.input.remaining:
		return rs.output
	}
	return rs.input
}
