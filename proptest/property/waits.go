package property

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// WaitsWithinBounds: every wait is a backoff step (within its jitter) or a
// wait the server asked for, never above the strategy's cap, and the total
// is within the wait budget. A wait for a rate-limit reset must end when
// the reset header said (or be the cap): a strategy that honours the reset
// headers is allowed that wait, not any wait up to it. The waits the
// server may ask for are read from the script (serverWaits); where the
// mock's buckets answer (a model's limits or capacity), or a 429 that says
// nothing answers within a when.before window, the wait is the bucket's
// or the window's, and only the cap and the budget are checked.
func WaitsWithinBounds(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	sw := serverWaitsOf(sc)
	allowed := func(ms int64) bool {
		if ms == 0 {
			return true
		}
		for i := range max(s.Attempts, 5) + 1 {
			lo, hi := s.Backoff.Bounds(i)
			if ms >= lo.Milliseconds()-1 && ms <= hi.Milliseconds()+1 {
				return true
			}
		}
		for i := range s.Rounds.Max {
			lo, hi := s.Rounds.Backoff.Bounds(i)
			if s.Classify && ms >= lo.Milliseconds()-1 && ms <= hi.Milliseconds()+1 {
				return true
			}
		}
		if !s.Classify || (!s.RetryAfter.HonorsHeader() && !s.RetryAfter.RateLimitReset) {
			return false
		}
		for _, w := range sw.waits {
			if c := s.RetryAfter.Cap; c > 0 {
				w = min(w, c)
			}
			if d := ms - w.Milliseconds(); d >= -1 && d <= 1 {
				return true
			}
			// retry_after.jitter adds 0 to that share of it.
			if j := s.RetryAfter.Jitter; s.RetryAfter.HonorsHeader() && j > 0 && ms >= w.Milliseconds() &&
				ms <= w.Milliseconds()+int64(float64(w.Milliseconds())*min(j, 1))+1 {
				return true
			}
		}
		return false
	}
	// untilReset: the wait ended at an instant a reset header names, or
	// was that wait cut to the cap.
	untilReset := func(a ledger.Attempt) bool {
		if !s.Classify || !s.RetryAfter.RateLimitReset {
			return false
		}
		for _, at := range sw.resets {
			if c := s.RetryAfter.Cap; c > 0 && a.WaitBeforeMS == c.Milliseconds() && a.AtMS <= at.Milliseconds()+1 {
				return true
			}
			if d := a.AtMS - at.Milliseconds(); d >= -1 && d <= 1 {
				return true
			}
		}
		return false
	}
	var total int64
	for _, a := range r.AttemptsLog {
		total += a.WaitBeforeMS
		if sw.known && !allowed(a.WaitBeforeMS) && !untilReset(a) {
			return fmt.Errorf("attempt %d waited %d ms: neither a backoff step nor a wait the server asked for: %s", a.N, a.WaitBeforeMS, settingOf(s))
		}
		if c := s.RetryAfter.Cap; s.Classify && c > 0 {
			_, hi := s.Backoff.Bounds(s.Attempts)
			if a.WaitBeforeMS > max(c, hi).Milliseconds() {
				return fmt.Errorf("attempt %d waited %d ms, above the %v cap: %s", a.N, a.WaitBeforeMS, c, settingOf(s))
			}
		}
	}
	if b := s.WaitBudget; b > 0 && total > b.Milliseconds() {
		return fmt.Errorf("waited %d ms in all, above the %v budget: %s", total, b, settingOf(s))
	}
	return nil
}

// serverWaits is what a script may ask a client to wait: waits (each
// retry-after, retry-after-ms and OpenAI reset its rules carry, the 1 s
// the mock gives a 429 that says nothing, and on the OpenAI wires the
// 6 ms of x-ratelimit-reset-requests that the mock, as OpenAI, sends on
// every answer) and resets (the instants Anthropic's reset headers name,
// since the session began). known is false when the mock may ask a wait
// the script does not write down.
type serverWaits struct {
	waits  []time.Duration
	resets []time.Duration
	known  bool
}

// rateLimitWait is the wait the mock asks of a 429 that says nothing and
// has no when.before window; openaiReset is the x-ratelimit-reset-requests
// of every other OpenAI answer (10,000 requests a minute). Both are the
// mock's (mockllm/ratelimit.go, mockllm/openai.go).
const (
	rateLimitWait = time.Second
	openaiReset   = 6 * time.Millisecond
)

func serverWaitsOf(sc *scenario.Scenario) serverWaits {
	sw := serverWaits{known: true}
	if sc.Turn.Wire == scenario.WireOpenAI || sc.Turn.Wire == scenario.WireOpenAIResponses {
		sw.waits = append(sw.waits, openaiReset)
	}
	for _, m := range sc.Models {
		if !m.Limits.IsZero() || m.Capacity.Concurrent > 0 {
			sw.known = false
		}
	}
	for _, ru := range sc.Script {
		h := ru.Respond.Headers
		_, hasRA := lookup(h, "retry-after")
		_, hasMS := lookup(h, "retry-after-ms")
		if ru.Respond.Status == 429 && !hasRA && !hasMS {
			if ru.When.Before.D() > 0 {
				sw.known = false
			}
			sw.waits = append(sw.waits, rateLimitWait)
		}
		for k, v := range h {
			k = strings.ToLower(k)
			switch {
			case v == "":
			case k == "retry-after":
				n, err := strconv.Atoi(v)
				if err != nil {
					sw.known = false // an HTTP date
					continue
				}
				sw.waits = append(sw.waits, time.Duration(n)*time.Second)
			case k == "retry-after-ms":
				n, err := strconv.ParseFloat(v, 64)
				if err != nil {
					sw.known = false
					continue
				}
				sw.waits = append(sw.waits, time.Duration(n*float64(time.Millisecond)))
			case strings.HasPrefix(k, "anthropic-ratelimit-") && strings.HasSuffix(k, "-reset"):
				at, err := time.Parse(time.RFC3339, v)
				if err != nil {
					sw.known = false
					continue
				}
				sw.resets = append(sw.resets, at.Sub(clock.Epoch))
			case strings.HasPrefix(k, "x-ratelimit-reset-"):
				d, err := time.ParseDuration(v)
				if err != nil {
					sw.known = false
					continue
				}
				sw.waits = append(sw.waits, d)
			}
		}
	}
	return sw
}

// lookup finds a header by name, whatever its case.
func lookup(h map[string]string, name string) (string, bool) {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

func header(h map[string]string, name string) string {
	v, _ := lookup(h, name)
	return v
}
