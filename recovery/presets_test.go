package recovery_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/recovery"
)

// outcome is what one turn did: what was sent, what was waited before
// each attempt, and how it ended.
type outcome struct {
	sent   []recovery.Request
	waits  []time.Duration // one per wait
	events []recovery.Event
	res    *recovery.Result
	err    error
}

func (o outcome) stop() recovery.Stop {
	if g, ok := recovery.AsGiveUp(o.err); ok {
		return g.Stop
	}
	return ""
}

func (o outcome) models() []string {
	var out []string
	for _, r := range o.sent {
		if r.Purpose != recovery.PurposeRepair {
			out = append(out, r.Model)
		}
	}
	return out
}

func (o outcome) count(t recovery.EventType) int {
	n := 0
	for _, e := range o.events {
		if e.Type == t {
			n++
		}
	}
	return n
}

// play runs one turn of s against script, with a backup model, the
// limits of a 200,000-token model and the given options.
func play(s recovery.Strategy, req recovery.Request, script func(n int, r recovery.Request) answer, opts ...recovery.Option) outcome {
	var o outcome
	p := &fake{script: script}
	all := append([]recovery.Option{
		recovery.WithClock(clock.NewVirtual()),
		recovery.WithRand(rand.New(rand.NewPCG(3, 4))),
		recovery.WithObserver(func(e recovery.Event) {
			o.events = append(o.events, e)
			if e.Type == recovery.EventWait {
				o.waits = append(o.waits, e.Wait)
			}
		}),
		recovery.WithFallbacks("backup"),
		recovery.WithLimits(map[string]recovery.Limits{
			"m":      {ContextWindow: 200000, MaxOutput: 64000},
			"backup": {ContextWindow: 200000, MaxOutput: 64000},
		}),
	}, opts...)
	o.res, o.err = recovery.New(p, s, all...).Do(context.Background(), req)
	o.sent = p.sent
	return o
}

func always(a answer) func(int, recovery.Request) answer {
	return func(int, recovery.Request) answer { return a }
}

// thenOK answers the first n requests with a, then a complete answer.
func thenOK(n int, a answer) func(int, recovery.Request) answer {
	return func(i int, _ recovery.Request) answer {
		if i <= n {
			return a
		}
		return ok("done")
	}
}

var small = func() recovery.Request { return turnOf("m", 4096, 4, 100) }

var (
	overloaded = status(529, "overloaded_error", "Overloaded", "x-should-retry", "true")
	limited    = status(429, "rate_limit_error", "slow down", "retry-after", "3600")
	quota      = answer{err: &recovery.APIError{StatusCode: 429, Type: "insufficient_quota", Code: "insufficient_quota", Message: "You exceeded your current quota"}}
	unknownErr = answer{err: errors.New("something odd")}
	notImpl    = status(501, "api_error", "Not implemented")
	unauth     = status(401, "authentication_error", "invalid x-api-key")
	badReq     = status(400, "invalid_request_error", "tools.0.input_schema: JSON schema is invalid")
)

var _ = Describe("the presets reproduce their sources", func() {
	DescribeTable("on the same faults",
		func(s recovery.Strategy, script func(int, recovery.Request) answer, sends int, stop recovery.Stop, check func(outcome)) {
			o := play(s, small(), script, recovery.WithAuthRefresh(func(context.Context) error { return nil }))
			Expect(o.sent).To(HaveLen(sends))
			Expect(o.stop()).To(Equal(stop))
			if check != nil {
				check(o)
			}
		},
		// 529 forever, with a backup model.
		Entry("classify: 3×529 then the backup", recovery.Classifying(), func(_ int, r recovery.Request) answer {
			if r.Model == "m" {
				return overloaded
			}
			return ok("from backup")
		}, 4, recovery.Stop(""), func(o outcome) {
			Expect(o.models()).To(Equal([]string{"m", "m", "m", "backup"}))
			Expect(o.waits).To(Equal([]time.Duration{time.Second, 2 * time.Second}))
		}),
		Entry("claude-code: 3×529 then the backup, with +0–25 % jitter", recovery.ClaudeCode(), func(_ int, r recovery.Request) answer {
			if r.Model == "m" {
				return overloaded
			}
			return ok("from backup")
		}, 4, recovery.Stop(""), func(o outcome) {
			Expect(o.waits).To(HaveLen(2))
			Expect(o.waits[0]).To(BeNumerically("~", 562500*time.Microsecond, 62500*time.Microsecond))
			Expect(o.waits[1]).To(BeNumerically("~", 1125*time.Millisecond, 125*time.Millisecond))
		}),
		Entry("kimi-code: no fallback, 10 attempts", recovery.KimiCode(), always(overloaded), 10, recovery.StopAttempts, func(o outcome) {
			Expect(o.models()).To(HaveEach("m"))
			Expect(o.waits).To(HaveLen(9))
			Expect(o.waits[8]).To(BeNumerically("<=", 40*time.Second), "capped at 32 s + 25 %")
		}),
		Entry("s11: 3 attempts on the first model, then the next", recovery.S11(), func(_ int, r recovery.Request) answer {
			if r.Model == "m" {
				return overloaded
			}
			return ok("from backup")
		}, 4, recovery.Stop(""), func(o outcome) {
			Expect(o.models()).To(Equal([]string{"m", "m", "m", "backup"}))
			Expect(o.waits).To(Equal([]time.Duration{500 * time.Millisecond, time.Second}))
		}),
		Entry("sdk-anthropic: 3 attempts, −0–25 % jitter, no fallback", recovery.SDKAnthropic(), always(overloaded), 3, recovery.StopAttempts, func(o outcome) {
			Expect(o.waits[0]).To(BeNumerically("~", 437500*time.Microsecond, 62500*time.Microsecond))
			Expect(o.waits[1]).To(BeNumerically("~", 875*time.Millisecond, 125*time.Millisecond))
		}),

		// A 429 asking for an hour.
		Entry("classify waits the 60 s cap", recovery.Classifying(), thenOK(1, limited), 2, recovery.Stop(""), func(o outcome) {
			Expect(o.waits).To(Equal([]time.Duration{time.Minute}))
		}),
		Entry("claude-code waits what it is told, plus 0–25 %", recovery.ClaudeCode(), thenOK(1, limited), 2, recovery.Stop(""), func(o outcome) {
			Expect(o.waits).To(HaveLen(1))
			Expect(o.waits[0]).To(BeNumerically(">=", time.Hour))
			Expect(o.waits[0]).To(BeNumerically("<=", 75*time.Minute))
		}),
		Entry("sdk-anthropic waits what it is told, with no upper bound", recovery.SDKAnthropic(), thenOK(1, limited), 2, recovery.Stop(""), func(o outcome) {
			Expect(o.waits).To(Equal([]time.Duration{time.Hour}))
		}),
		Entry("s11 ignores retry-after", recovery.S11(), thenOK(1, limited), 2, recovery.Stop(""), func(o outcome) {
			Expect(o.waits).To(Equal([]time.Duration{500 * time.Millisecond}))
		}),

		// A quota 429.
		Entry("classify stops on quota", recovery.Classifying(), always(quota), 1, recovery.StopNotRetryable, nil),
		Entry("kimi-code stops on quota", recovery.KimiCode(), always(quota), 1, recovery.StopNotRetryable, nil),
		Entry("sdk-anthropic retries a quota 429: it reads only the status", recovery.SDKAnthropic(), always(quota), 3, recovery.StopAttempts, nil),
		Entry("claude-code retries a quota 429 as any 429", recovery.ClaudeCode(), thenOK(2, quota), 3, recovery.Stop(""), nil),

		// A 501 and an unknown error.
		Entry("kimi-code does not retry a status outside its list", recovery.KimiCode(), always(notImpl), 1, recovery.StopNotRetryable, nil),
		Entry("sdk-anthropic retries every 5xx", recovery.SDKAnthropic(), thenOK(1, notImpl), 2, recovery.Stop(""), nil),
		Entry("s11 retries the unknown", recovery.S11(), thenOK(2, unknownErr), 3, recovery.Stop(""), nil),
		Entry("classify retries the unknown", recovery.Classifying(), thenOK(1, unknownErr), 2, recovery.Stop(""), nil),
		Entry("claude-code does not retry the unknown", recovery.ClaudeCode(), always(unknownErr), 1, recovery.StopNotRetryable, nil),

		// A 401.
		Entry("classify refreshes once, then resends", recovery.Classifying(), thenOK(1, unauth), 2, recovery.Stop(""), func(o outcome) {
			Expect(o.count(recovery.EventAuthRefresh)).To(Equal(1))
			Expect(o.waits).To(BeEmpty())
		}),
		Entry("claude-code resends a 401 within its 11 attempts, refreshing before each", recovery.ClaudeCode(), always(unauth), 11, recovery.StopAttempts, func(o outcome) {
			Expect(o.count(recovery.EventAuthRefresh)).To(Equal(10))
			Expect(o.waits).To(HaveLen(10))
		}),
		Entry("s11 falls back on a permanent error", recovery.S11(), func(_ int, r recovery.Request) answer {
			if r.Model == "m" {
				return unauth
			}
			return ok("backup")
		}, 2, recovery.Stop(""), func(o outcome) { Expect(o.models()).To(Equal([]string{"m", "backup"})) }),
		Entry("sdk-anthropic stops on a 401", recovery.SDKAnthropic(), always(unauth), 1, recovery.StopAuth, nil),

		// A bad request.
		Entry("s11 tries the next model on an invalid request, then stops", recovery.S11(), always(badReq), 2, recovery.StopNoFallback, nil),
		Entry("every other classifying preset stops at once", recovery.KimiCode(), always(badReq), 1, recovery.StopNotRetryable, nil),

		// A truncated answer.
		Entry("classify doubles max_tokens up to 3 times", recovery.Classifying(), func(_ int, r recovery.Request) answer { return cut(r.MaxTokens) },
			4, recovery.Stop(""), func(o outcome) {
				Expect(o.res.Escalations).To(Equal(3))
				Expect(o.sent[3].MaxTokens).To(Equal(32768))
				Expect(o.res.Response.StopReason).To(Equal("max_tokens"))
			}),
		Entry("s11 escalates once, ×2", recovery.S11(), func(_ int, r recovery.Request) answer { return cut(r.MaxTokens) },
			2, recovery.Stop(""), func(o outcome) { Expect(o.sent[1].MaxTokens).To(Equal(8192)) }),
		Entry("sdk-anthropic hands a truncated answer back", recovery.SDKAnthropic(), func(_ int, r recovery.Request) answer { return cut(r.MaxTokens) },
			1, recovery.Stop(""), nil),
	)

	It("s11 makes no escalation above its 32,768 ceiling", func() {
		o := play(recovery.S11(), turnOf("m", 20000, 4, 100), func(_ int, r recovery.Request) answer { return cut(r.MaxTokens) })
		Expect(o.sent).To(HaveLen(1))
		Expect(o.res.Response.StopReason).To(Equal("max_tokens"))
	})

	It("kimi-code takes a 413 for an overflow when the request is half the window", func() {
		big := turnOf("m", 4096, 20, 6000) // 120,100 input tokens
		o := play(recovery.KimiCode(), big, func(n int, r recovery.Request) answer {
			if r.Purpose == recovery.PurposeRepair {
				return ok(tokens.Text(500))
			}
			if recovery.CountTokens(r) > 100000 {
				return status(413, "request_too_large", "Request exceeds the maximum allowed number of bytes.")
			}
			return ok("fits")
		})
		Expect(o.err).NotTo(HaveOccurred())
		Expect(o.res.Compactions).To(Equal(1))
		small := play(recovery.KimiCode(), turnOf("m", 4096, 4, 100), always(status(413, "request_too_large", "too large")))
		Expect(small.stop()).To(Equal(recovery.StopNotRetryable))
	})

	It("every preset has a name, a description and is found by name", func() {
		seen := map[string]bool{}
		for _, s := range recovery.Presets() {
			Expect(s.Name).NotTo(BeEmpty())
			Expect(s.Description).NotTo(BeEmpty())
			Expect(seen[s.Name]).To(BeFalse())
			seen[s.Name] = true
			got, ok := recovery.Preset(s.Name)
			Expect(ok).To(BeTrue())
			Expect(got.Name).To(Equal(s.Name))
		}
		Expect(seen).To(HaveLen(13))
		for _, alias := range recovery.Aliases() {
			Expect(seen[alias]).To(BeFalse(), "an alias is not a preset of its own")
			got, ok := recovery.Preset(alias)
			Expect(ok).To(BeTrue())
			Expect(got.Name).To(Equal(alias))
		}
		alias, _ := recovery.Preset("sdk-default")
		alias.Name, alias.Description = "sdk-anthropic", recovery.SDKAnthropic().Description
		Expect(alias).To(Equal(recovery.SDKAnthropic()))
	})
})
