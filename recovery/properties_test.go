package recovery_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/recovery"
)

// The engine's own properties, over a fake provider: cheap enough to run
// thousands of generated scripts (RAPID_CHECKS), and able to watch every
// event. harness/properties_test.go checks the same engine end to end,
// over the mock.

// genAnswer draws one reply of a script: any failure docs/classification.md knows, with
// the directives a server may attach (x-should-retry on every error status,
// permanent ones included).
func genAnswer(t *rapid.T, label string) answer {
	hdr := func(kv ...string) []string { return kv }
	sr := func() []string {
		if v := rapid.SampledFrom([]string{"true", "false", ""}).Draw(t, label+".should_retry"); v != "" {
			return hdr("x-should-retry", v)
		}
		return nil
	}
	switch rapid.IntRange(0, 19).Draw(t, label+".kind") {
	case 0:
		return ok("fine")
	case 1:
		return cut(rapid.IntRange(100, 8000).Draw(t, label+".cut"))
	case 2:
		return answer{resp: &recovery.Response{StopReason: "end_turn"}}
	case 3:
		h := hdr()
		switch rapid.IntRange(0, 4).Draw(t, label+".directive") {
		case 1:
			h = hdr("retry-after", strconv.Itoa(rapid.IntRange(0, 7200).Draw(t, label+".retry_after")))
		case 2:
			h = hdr("retry-after-ms", strconv.Itoa(rapid.IntRange(0, 90000).Draw(t, label+".retry_after_ms")))
		case 3:
			at := clock.Epoch.Add(time.Duration(rapid.IntRange(0, 4000).Draw(t, label+".reset_s")) * time.Second)
			h = hdr("anthropic-ratelimit-requests-remaining", "0", "anthropic-ratelimit-requests-reset", at.Format(time.RFC3339))
		case 4:
			h = hdr("x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", fmt.Sprintf("%dms", rapid.IntRange(0, 400000).Draw(t, label+".reset_ms")))
		}
		return status(429, "rate_limit_error", "slow down", append(h, sr()...)...)
	case 4:
		return status(529, "overloaded_error", "Overloaded", sr()...)
	case 5:
		return status(rapid.SampledFrom([]int{500, 502, 503, 504, 501}).Draw(t, label+".status"), "api_error", "boom", sr()...)
	case 6:
		return status(401, "authentication_error", "invalid x-api-key", sr()...)
	case 7:
		return status(403, "permission_error", "no", sr()...)
	case 8:
		return status(400, "invalid_request_error", "tools.0.input_schema: JSON schema is invalid", sr()...)
	case 9:
		return status(429, "insufficient_quota", "You exceeded your current quota, please check your plan and billing details.", sr()...)
	case 10:
		return status(400, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > %d maximum",
			rapid.IntRange(5000, 300000).Draw(t, label+".input"), rapid.IntRange(4000, 200000).Draw(t, label+".window")), sr()...)
	case 11:
		return status(400, "invalid_request_error", fmt.Sprintf("input length and `max_tokens` exceed context limit: %d + %d > %d",
			rapid.IntRange(1000, 190000).Draw(t, label+".input"), rapid.IntRange(1000, 64000).Draw(t, label+".max"), rapid.IntRange(4000, 200000).Draw(t, label+".window")), sr()...)
	case 12:
		return status(404, "not_found_error", "model: x", sr()...)
	case 13:
		return status(rapid.SampledFrom([]int{408, 409}).Draw(t, label+".status"), "", "", sr()...)
	case 14:
		return status(413, "request_too_large", "Request exceeds the maximum allowed number of bytes.", sr()...)
	case 15:
		return answer{err: connReset()}
	case 16:
		return answer{err: fmt.Errorf("stream: %w", io.ErrUnexpectedEOF)}
	case 17:
		return status(402, "billing_error", "Your credit balance is too low to access the Anthropic API.", sr()...)
	case 18:
		// An overflow that gives no numbers: the window must be learnt.
		return status(400, "invalid_request_error", "The input is too long for the model's context window.", sr()...)
	}
	return answer{resp: &recovery.Response{StopReason: "refusal"}}
}

// script is a generated sequence of replies; past its end, the last one
// repeats for ever, or the model answers.
type script struct {
	replies []answer
	forever bool
	// repairFails answers every summarisation call with an error, so
	// that compaction fails.
	repairFails bool
}

func genScript(t *rapid.T) script {
	n := rapid.IntRange(1, 12).Draw(t, "replies")
	s := script{forever: rapid.Bool().Draw(t, "forever"), repairFails: rapid.IntRange(0, 4).Draw(t, "repair_fails") == 0}
	for i := range n {
		s.replies = append(s.replies, genAnswer(t, fmt.Sprintf("reply%d", i)))
	}
	return s
}

func (s script) reply(n int, r recovery.Request) answer {
	if r.Purpose == recovery.PurposeRepair {
		if s.repairFails {
			return status(500, "api_error", "summariser down")
		}
		// Each summary differs, as a model's would: a constant one made a
		// second compaction (of the first summary alone) send back the very
		// request that had been refused, which no real summariser does.
		return ok(fmt.Sprintf("summary %d: ", n) + tokens.Text(300))
	}
	if n <= len(s.replies) {
		return s.replies[n-1]
	}
	if s.forever {
		return s.replies[len(s.replies)-1]
	}
	return ok("fine")
}

// genStrategy draws a preset, sometimes with its budgets and caps changed.
func genStrategy(t *rapid.T) recovery.Strategy {
	s := rapid.SampledFrom(recovery.Presets()).Draw(t, "preset").Clone()
	if rapid.Bool().Draw(t, "tuned") {
		s.WaitBudget = time.Duration(rapid.IntRange(0, 600).Draw(t, "wait_budget_s")) * time.Second
		s.RetryAfter.Cap = time.Duration(rapid.IntRange(0, 120).Draw(t, "cap_s")) * time.Second
		if rapid.Bool().Draw(t, "give_up_above_cap") {
			s.RetryAfter.AboveCap = recovery.AboveCapGiveUp
		} else if a := s.RetryAfter.AboveCap; a == recovery.AboveCapGiveUp || a == recovery.AboveCapFallback {
			s.RetryAfter.AboveCap = recovery.AboveCapWait
		}
		s.TurnAttempts = rapid.IntRange(0, 12).Draw(t, "turn_attempts")
		s.RetryAfter.RateLimitReset = rapid.Bool().Draw(t, "rate_limit_reset")
		if s.Classify {
			s.Persistent = rapid.Bool().Draw(t, "persistent")
			s.Heartbeat = time.Duration(rapid.IntRange(0, 60).Draw(t, "heartbeat_s")) * time.Second
		}
	}
	return s
}

// sleepCancel is the engine's clock in the properties: a virtual clock
// that, when cancelAt > 0, ends the turn's context during its cancelAt-th
// sleep, as a caller giving up mid-wait would.
type sleepCancel struct {
	*clock.Virtual
	cancelAt, sleeps int
	cancel           context.CancelFunc
}

func (c *sleepCancel) Sleep(ctx context.Context, d time.Duration) error {
	if c.sleeps++; c.sleeps == c.cancelAt {
		c.cancel()
	}
	return c.Virtual.Sleep(ctx, d)
}

// trace is one generated turn, run.
type trace struct {
	s      recovery.Strategy
	req    recovery.Request
	sent   []recovery.Request
	events []recovery.Event
	res    *recovery.Result
	err    error
}

// maxSends bounds a turn in these properties: a preset that needs more has
// lost its way (persistent mode's own bound is 1,000).
const maxSends = 1200

// maxEvents bounds the events of a turn, far above what maxSends requests
// report: a turn that holds or waits again and again without sending
// fails the property instead of spinning until go test's timeout.
const maxEvents = 50 * maxSends

func runTrace(t *rapid.T) trace {
	tr := trace{s: genStrategy(t)}
	sc := genScript(t)
	if tr.s.Escalation.Ceiling > 0 && rapid.Bool().Draw(t, "cut_first") {
		sc.replies = append([]answer{cut(1000)}, sc.replies...)
	}
	// Some draws are biased toward the paths a strategy has, so that a
	// run at CI's depth takes each (coverage_test.go): max_tokens past
	// s11's ceiling once doubled, a conversation over the window for
	// preflight to shrink.
	odds := func(label string, n int) bool { return rapid.IntRange(0, n-1).Draw(t, label) == 0 }
	maxTokens := rapid.IntRange(256, 16000).Draw(t, "max_tokens")
	if odds("big_max_tokens", map[bool]int{true: 2, false: 5}[tr.s.Escalation.Ceiling > 0]) {
		maxTokens = rapid.IntRange(16385, 40000).Draw(t, "max_tokens_big")
	}
	n := rapid.IntRange(1, 20).Draw(t, "messages")
	per := 200
	if odds("big_messages", map[bool]int{true: 2, false: 4}[tr.s.Preflight]) {
		per = rapid.IntRange(200000, 260000).Draw(t, "conversation_tokens") / n
	}
	tr.req = turnOf("m", maxTokens, n, per)
	// A third of the scripts open on a pattern the repairs answer: an
	// overload that lasts, an input over the window, an input that fits
	// but not with max_tokens, an overflow that gives no numbers.
	input := recovery.CountTokens(tr.req)
	switch rapid.IntRange(0, 5).Draw(t, "opening") {
	case 1:
		sc.replies, sc.forever = []answer{status(529, "overloaded_error", "Overloaded")}, rapid.Bool().Draw(t, "overloaded_forever")
		if !sc.forever {
			sc.replies = append(sc.replies, sc.replies[0], sc.replies[0])
		}
	case 2:
		sc.replies = append([]answer{status(400, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > %d maximum", input, min(input-1, 200000)))}, sc.replies...)
	case 3:
		sc.replies = append([]answer{status(400, "invalid_request_error", fmt.Sprintf("input length and `max_tokens` exceed context limit: %d + %d > %d",
			input, tr.req.MaxTokens, input+tr.req.MaxTokens-1))}, sc.replies...)
	case 4:
		sc.replies = append([]answer{status(400, "invalid_request_error", "The input is too long for the model's context window.")}, sc.replies...)
	}
	tr.req.Background = rapid.Bool().Draw(t, "background")
	p := &fake{}
	p.script = func(n int, r recovery.Request) answer {
		if n > maxSends {
			t.Fatalf("%s: more than %d requests: it does not terminate", tr.s.Name, maxSends)
		}
		return sc.reply(n, r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := &sleepCancel{Virtual: clock.NewVirtual(), cancel: cancel}
	if rapid.IntRange(0, 5).Draw(t, "cancel_in_sleep") == 0 {
		clk.cancelAt = rapid.IntRange(1, 3).Draw(t, "cancel_at_sleep")
	}
	e := recovery.New(p, tr.s,
		recovery.WithClock(clk),
		recovery.WithRand(rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))),
		recovery.WithObserver(func(ev recovery.Event) {
			if len(tr.events) == maxEvents { // a loop that sends nothing, holding or waiting for ever on the virtual clock
				t.Fatalf("%s: more than %d events: it does not terminate", tr.s.Name, maxEvents)
			}
			tr.events = append(tr.events, ev)
		}),
		recovery.WithFallbacks("backup"),
		recovery.WithLimits(map[string]recovery.Limits{"m": {ContextWindow: 200000, MaxOutput: 64000}, "backup": {ContextWindow: 100000, MaxOutput: 32000}}),
		recovery.WithAuthRefresh(func(context.Context) error { return nil }),
	)
	tr.res, tr.err = e.Do(ctx, tr.req)
	tr.sent = p.sent
	return tr
}

// attempts returns the turn's attempt events, in order.
func (tr trace) attempts() []recovery.Event {
	var out []recovery.Event
	for _, e := range tr.events {
		if e.Type == recovery.EventAttempt {
			out = append(out, e)
		}
	}
	return out
}

func sameRequest(a, b *recovery.Request) bool {
	return a.Model == b.Model && a.MaxTokens == b.MaxTokens && reflect.DeepEqual(a.Messages, b.Messages)
}

func TestPropertyEveryPresetTerminates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		if tr.res == nil {
			t.Fatalf("no result")
		}
		if (tr.err == nil) == (tr.res.Response == nil) {
			t.Fatalf("%s: an answer and an error, or neither: %v", tr.s.Name, tr.err)
		}
		last := tr.events[len(tr.events)-1].Type
		if last != recovery.EventDone && last != recovery.EventGiveUp {
			t.Fatalf("%s: the turn ended on %s", tr.s.Name, last)
		}
	})
}

func TestPropertyWaitsWithinCapAndBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		s := tr.s
		var total time.Duration
		// The largest wait the backoff alone can ask for.
		b := s.Backoff
		if s.Persistent && s.Classify {
			b.Cap = 5 * time.Minute
		}
		var backoffMax time.Duration
		for i := range 12 {
			_, hi := b.Bounds(i)
			backoffMax = max(backoffMax, hi)
		}
		for _, e := range tr.events {
			if e.Type != recovery.EventWait {
				continue
			}
			total += e.Wait
			if s.Classify && s.RetryAfter.Cap > 0 && e.Wait > max(s.RetryAfter.Cap, backoffMax) {
				t.Fatalf("%s waited %v, above the %v cap", s.Name, e.Wait, s.RetryAfter.Cap)
			}
		}
		budget := s.WaitBudget
		if budget == 0 && s.Persistent && s.Classify {
			budget = 6 * time.Hour
		}
		if s.Classify && budget > 0 && total > budget {
			t.Fatalf("%s waited %v in all, above the %v budget", s.Name, total, budget)
		}
		if total != tr.res.Waited && !cancelledInSleep(tr) {
			t.Fatalf("events add to %v, the result says %v", total, tr.res.Waited)
		}
	})
}

func TestPropertyShouldRetryFalseIsNeverRetried(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		if !tr.s.Classify || tr.s.ShouldRetry == recovery.ShouldRetryIgnore {
			return
		}
		as := tr.attempts()
		for i, a := range as[:max(len(as)-1, 0)] {
			f := a.Failure
			if f.ShouldRetry == nil || *f.ShouldRetry {
				continue
			}
			if tr.s.ShouldRetry == recovery.ShouldRetryHonorExceptOverloaded && f.Kind == recovery.KindOverloaded {
				continue
			}
			if f.Kind == recovery.KindAuth && refreshedBefore(tr.events, i+2) {
				continue // new credentials: not the same request
			}
			if sameRequest(a.Request, as[i+1].Request) {
				t.Fatalf("%s: attempt %d said x-should-retry: false (%s), and attempt %d resent it unchanged", tr.s.Name, i+1, f.Kind, i+2)
			}
		}
	})
}

// refreshedBefore reports whether the credentials were refreshed just
// before attempt n.
func refreshedBefore(events []recovery.Event, n int) bool {
	refreshed := false
	for _, e := range events {
		switch {
		case e.Type == recovery.EventAuthRefresh:
			refreshed = true
		case e.Type == recovery.EventAttempt && e.Attempt == n:
			return refreshed
		case e.Type == recovery.EventAttempt:
			refreshed = false
		}
	}
	return false
}

func TestPropertyAuthRefreshAtMostOncePerTurn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		n := 0
		for _, e := range tr.events {
			if e.Type == recovery.EventAuthRefresh {
				n++
			}
		}
		if tr.s.Auth == recovery.AuthWithinAttempts {
			return // Claude Code refreshes before every resend of a 401: no limit of one
		}
		if n > 1 {
			t.Fatalf("%s refreshed credentials %d times in one turn", tr.s.Name, n)
		}
		if n == 1 && tr.s.Auth != recovery.AuthRefresh {
			t.Fatalf("%s refreshed without AuthRefresh", tr.s.Name)
		}
	})
}

func TestPropertyBackgroundNeverRetriesAnOverload(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		if !tr.req.Background || !tr.s.ShedBackground || !tr.s.Classify {
			return
		}
		as := tr.attempts()
		for i, a := range as {
			if a.Failure.Kind == recovery.KindOverloaded && i != len(as)-1 {
				t.Fatalf("%s: background attempt %d was overloaded, yet %d more followed", tr.s.Name, i+1, len(as)-1-i)
			}
		}
	})
}

// Under classify a permanent failure stops the turn whatever x-should-retry
// says: invalid, permission and quota always; a 401 once its refresh is
// used (or when there is none); a 404 unless the turn moves to another
// model on it.
func TestPropertyClassifyNeverResendsAPermanentError(t *testing.T) {
	permanent := []recovery.Kind{recovery.KindInvalidRequest, recovery.KindPermission, recovery.KindQuotaExhausted}
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		if tr.s.Name != "classify" && tr.s.Name != "classify-preflight" {
			return
		}
		as := tr.attempts()
		refreshes := 0
		for i, a := range as[:max(len(as)-1, 0)] {
			next := as[i+1]
			k := a.Failure.Kind
			switch {
			case slices.Contains(permanent, k):
				t.Fatalf("%s: attempt %d was %s (x-should-retry %v), yet another followed", tr.s.Name, i+1, k, shouldRetry(a.Failure))
			case k == recovery.KindNotFound && next.Request.Model == a.Request.Model:
				t.Fatalf("%s: attempt %d was not_found (x-should-retry %v), yet attempt %d went to the same model", tr.s.Name, i+1, shouldRetry(a.Failure), i+2)
			case k == recovery.KindAuth:
				if refreshes++; refreshes > 1 {
					t.Fatalf("%s: attempt %d was a second 401 (x-should-retry %v), yet another followed", tr.s.Name, i+1, shouldRetry(a.Failure))
				}
			}
		}
	})
}

func shouldRetry(f recovery.Failure) string {
	if f.ShouldRetry == nil {
		return "absent"
	}
	return strconv.FormatBool(*f.ShouldRetry)
}

func TestPropertyNoSleepAfterTheFinalAttempt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		if !tr.s.Classify || cancelledInSleep(tr) {
			return // a wait the caller cut short was meant to precede an attempt
		}
		for i := len(tr.events) - 1; i >= 0; i-- {
			switch tr.events[i].Type {
			case recovery.EventWait, recovery.EventHeartbeat:
				t.Fatalf("%s slept after its last request", tr.s.Name)
			case recovery.EventAttempt, recovery.EventRepair:
				return
			}
		}
	})
}

func TestPropertyMaxTokensWithinTheOutputLimit(t *testing.T) {
	limits := map[string]int{"m": 64000, "backup": 32000}
	rapid.Check(t, func(t *rapid.T) {
		tr := runTrace(t)
		if tr.s.Escalation.Unclamped {
			return // s11 sends an escalation above the limit on purpose; limits_test.go pins it
		}
		for i, r := range tr.sent {
			if r.MaxTokens > max(limits[r.Model], tr.req.MaxTokens) {
				t.Fatalf("%s: request %d asks %d max_tokens of %s (limit %d)", tr.s.Name, i+1, r.MaxTokens, r.Model, limits[r.Model])
			}
		}
	})
}

func TestPropertyCancelledStopsBeforeTheNextAttempt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.SampledFrom(recovery.Presets()).Draw(t, "preset")
		sc := genScript(t)
		cancelAt := rapid.IntRange(1, 5).Draw(t, "cancel_at")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sends := 0
		p := recovery.ProviderFunc(func(_ context.Context, r recovery.Request) (*recovery.Response, error) {
			sends++
			if sends == cancelAt {
				cancel()
			}
			a := sc.reply(sends, r)
			return a.resp, a.err
		})
		waitedAfter := false
		e := recovery.New(p, s, recovery.WithClock(clock.NewVirtual()), recovery.WithRand(rand.New(rand.NewPCG(1, 1))),
			recovery.WithFallbacks("backup"),
			recovery.WithObserver(func(ev recovery.Event) {
				if ev.Type == recovery.EventWait && sends >= cancelAt {
					waitedAfter = true
				}
			}))
		_, err := e.Do(ctx, turnOf("m", 1000, 4, 100))
		if sends > cancelAt {
			t.Fatalf("%s sent %d requests; the context ended during request %d", s.Name, sends, cancelAt)
		}
		if waitedAfter {
			t.Fatalf("%s waited after the context ended", s.Name)
		}
		if sends == cancelAt && err == nil {
			// The last request may have been answered: that is fine.
			return
		}
	})
}

// The case rapid once found (its fail file, written by an older rapid,
// could no longer be replayed): with turn_attempts 1, an empty answer used
// to be followed by a wait although no attempt was left.
func TestNoSleepWhenTheTurnAttemptsRunOut(t *testing.T) {
	s := recovery.Classifying()
	s.TurnAttempts = 1
	var events []recovery.Event
	p := &fake{script: func(int, recovery.Request) answer { return answer{resp: &recovery.Response{StopReason: "end_turn"}} }}
	e := recovery.New(p, s, recovery.WithClock(clock.NewVirtual()), recovery.WithRand(rand.New(rand.NewPCG(0, 1))),
		recovery.WithObserver(func(ev recovery.Event) { events = append(events, ev) }))
	res, err := e.Do(context.Background(), turnOf("m", 256, 1, 200))
	if err == nil || res.Attempts != 1 || res.Waited != 0 {
		t.Fatalf("attempts %d, waited %v, err %v; want 1 attempt, no wait, an error", res.Attempts, res.Waited, err)
	}
	for _, ev := range events {
		if ev.Type == recovery.EventWait {
			t.Fatalf("waited %v after the turn's only attempt", ev.Wait)
		}
	}
}

// cancelledInSleep reports a turn whose context ended during a wait.
func cancelledInSleep(tr trace) bool {
	n := len(tr.events)
	if n < 2 || tr.events[n-1].Type != recovery.EventGiveUp {
		return false
	}
	g, ok := recovery.AsGiveUp(tr.events[n-1].Err)
	prev := tr.events[n-2].Type
	return ok && g.Stop == recovery.StopCancelled && (prev == recovery.EventWait || prev == recovery.EventHeartbeat)
}
