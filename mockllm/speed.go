package mockllm

import (
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// A model's speed makes its answers take virtual time: an answer is in
// flight from its request to its last byte, which is what makes callers
// overlap and a model's capacity bite. An answer that does not stream
// comes whole after the first token's wait and the generation of every
// output token; one that streams sends its headers and first event after
// the first token's wait, and the rest once generated. A scripted fault
// keeps its own timing, errors come at once, and a model without speed
// answers at once, as before.

// pace sets the reply's speed from the model's, for a complete answer (or
// tool calls) without a fault.
func pace(rp *reply, m scenario.Model) {
	if rp.Err != nil || !rp.fault.IsZero() || m.Speed.IsZero() {
		return
	}
	rp.lag = m.Speed.FirstToken.D()
	rp.gen = m.Speed.Duration(rp.Ans.Output) - rp.lag
}

// firstWait is what the reply waits before its headers.
func (r *reply) firstWait() time.Duration {
	if r.streaming() {
		return r.lag
	}
	return r.lag + r.gen
}

// outpaced says what a client whose deadline is at deadline sees of a
// paced reply taken at now: no status when the answer (or a stream's
// first event) comes after it, the status and a timeout when a stream's
// end does.
func (r *reply) outpaced(now, deadline time.Time, status int, kind string) (int, string) {
	switch {
	case now.Add(r.firstWait()).After(deadline):
		return 0, kindTimeout
	case now.Add(r.lag + r.gen).After(deadline):
		return status, kindTimeout
	}
	return status, kind
}

// admitted answers a request no rule took, if the model's capacity and
// quotas admit it (quota.go): a complete answer, paced, whose output
// reservation settles when it ends; else the 529 or the 429, the latter
// with retry-after in whole seconds.
// model is the served model the request's name resolved to.
func (s *session) admitted(rp *reply, q *wire.Request, model string, m scenario.Model, purpose string, now time.Time) {
	tk, refusal, wait := s.quota.admit(rp.api, model, rp.RequestID, q.InputTokens(), q.MaxTokens, now)
	if refusal != nil {
		refuse(rp, refusal, wait)
		return
	}
	s.compose(rp, q, m, purpose)
	pace(rp, m)
	s.cached(rp, q, model, false, now)
	s.quota.settle(tk, rp.Ans.Output, now.Add(rp.lag+rp.gen))
}

// refuse answers with the buckets' or the capacity's refusal, and the
// wait it asks for.
func refuse(rp *reply, refusal *wire.Error, wait time.Duration) {
	rp.Err = refusal
	if wait > 0 {
		rp.Wait = wait
		rp.retryAfter = retryAfterSeconds(wait)
	}
}
