package mockllm

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// A scripted 429, 503 or 529 that asks for a wait keeps its word: a real
// limiter that said "retry after 3 s" refuses a retry 1 s later. Until the
// wait it asked for has passed, every request of the session on the same
// model is answered with the same error, asking for the wait that is left,
// and the script is not consulted (no rule is used up), unless the rule
// says early_retry: scripted (docs/scenario-format.md).

// shutWindow is a model's refusal window: until when, the index of the
// rule whose answer opened it, and whether that answer had the mock add a
// retry-after (a refusal then states the wait left in one too).
type shutWindow struct {
	until time.Time
	rule  int
	added bool
}

// waitStatus reports whether a status is one whose asked wait the mock
// holds a client to: 429, 503 or 529.
func waitStatus(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable || status == 529
}

// shut opens the refusal window of rule i's scripted error, when it asks
// the client for a wait (rp.Wait, stated in retry-after or a sibling) on
// a 429, 503 or 529 and the rule does not hand early retries to the
// script.
func (s *session) shut(rp *reply, rule *scenario.Rule, i int, model string, asked bool, now time.Time) {
	r := &rule.Respond
	if rp.Wait <= 0 || !waitStatus(r.Status) || r.EarlyRetry == scenario.EarlyRetryScripted {
		return
	}
	if !asked && rp.retryAfter == "" && rp.Err.Wait <= 0 {
		return // the rule removed the retry-after the mock adds: nothing was asked
	}
	if s.windows == nil {
		s.windows = make(map[string]shutWindow, 1)
	}
	s.windows[model] = shutWindow{until: now.Add(rp.Wait), rule: i, added: rp.retryAfter != ""}
}

// refuseEarly answers a request that comes before the model's refusal
// window closes with the error that opened it, asking for the wait that is
// left; it reports whether it did. A retry-after written as a date stays
// (it still names the same instant); the rule's other wait headers
// (retry-after in seconds, retry-after-ms, x-ratelimit-reset-*) state the
// wait left instead, retry-after rounded up to whole seconds.
func (s *session) refuseEarly(rp *reply, name, model string, now time.Time) bool {
	w, ok := s.windows[model]
	if !ok || !now.Before(w.until) {
		return false
	}
	rule := &s.scenario.sc.Script[w.rule]
	r := &rule.Respond
	left := w.until.Sub(now)
	rp.rule = w.rule + 1
	rp.headers = leftHeaders(rebase(r.Headers, s.start), left)
	rp.Err = rp.api.Scripted(wire.Scripted{Status: r.Status, Type: r.Type, Msg: r.Message, Model: name, Wait: left, RequestID: rp.RequestID,
		Quota: r.Quota, RetryDelay: left, Rate: s.quota.state(model, now)})
	rp.Wait = left
	if w.added && !hasHeader(rp.headers, "retry-after") {
		rp.retryAfter = retryAfterSeconds(left)
	}
	return true
}

// leftHeaders is a rule's headers for an early retry's refusal: those
// that state a wait as a length state the wait left.
func leftHeaders(headers map[string]string, left time.Duration) map[string]string {
	out := make(map[string]string, len(headers))
	for k, v := range headers {
		name := strings.ToLower(k)
		switch {
		case name == "retry-after":
			if _, err := http.ParseTime(strings.TrimSpace(v)); err == nil || v == "" {
				out[k] = v // a date names the same instant still; "" still removes the mock's
			} else {
				out[k] = retryAfterSeconds(left)
			}
		case name == "retry-after-ms":
			if v != "" {
				out[k] = strconv.FormatInt(int64((left+time.Millisecond-1)/time.Millisecond), 10) // rounded up: never early
			}
		case strings.HasPrefix(name, "x-ratelimit-reset-"):
			if v != "" {
				out[k] = left.String()
			}
		default:
			out[k] = v
		}
	}
	return out
}
