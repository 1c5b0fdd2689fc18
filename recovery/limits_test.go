package recovery_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/recovery"
)

var _ = Describe("budgets, limits and directives", func() {
	It("stops with ErrWaitBudget when the next wait would break the budget", func() {
		s := recovery.Classifying()
		s.WaitBudget = 5 * time.Second
		o := play(s, small(), always(status(500, "api_error", "boom")))
		Expect(o.err).To(MatchError(recovery.ErrWaitBudget))
		Expect(o.res.Waited).To(Equal(3 * time.Second)) // 1 + 2; the 4 s wait would pass 5 s
		g, _ := recovery.AsGiveUp(o.err)
		Expect(g.Budget).To(Equal(5 * time.Second))
		Expect(g.Waited).To(Equal(3 * time.Second))
		Expect(g.Attempts).To(Equal(3))
	})

	It("gives up at once, with the server's error, when asked to wait above the cap", func() {
		s := recovery.Classifying()
		s.RetryAfter.AboveCap = recovery.AboveCapGiveUp
		o := play(s, small(), always(limited))
		Expect(o.err).To(MatchError(recovery.ErrRetryAfterCap))
		var apiErr *recovery.APIError
		Expect(errors.As(o.err, &apiErr)).To(BeTrue())
		Expect(apiErr.StatusCode).To(Equal(429))
		Expect(o.sent).To(HaveLen(1))
		Expect(o.waits).To(BeEmpty())
	})

	It("bounds the attempts of a whole turn across steps", func() {
		s := recovery.Classifying()
		s.TurnAttempts = 4
		o := play(s, small(), func(_ int, r recovery.Request) answer {
			if r.Model == "m" {
				return overloaded
			}
			return status(500, "api_error", "boom")
		})
		Expect(o.sent).To(HaveLen(4)) // 3 on m, then 1 on the backup
		Expect(o.err).To(MatchError(recovery.ErrAttempts))
	})

	It("caps the turn's attempts without losing a truncated answer", func() {
		s := recovery.Classifying()
		s.TurnAttempts = 2
		o := play(s, small(), func(_ int, r recovery.Request) answer { return cut(r.MaxTokens) })
		Expect(o.err).NotTo(HaveOccurred())
		Expect(o.sent).To(HaveLen(2))
		Expect(o.res.Response.StopReason).To(Equal("max_tokens"))
	})

	Describe("persistent mode", func() {
		It("retries capacity errors past the attempts, backoff capped, in heartbeats", func() {
			s := recovery.ClaudeCode()
			s.Persistent, s.Heartbeat = true, 30*time.Second
			s.Fallback.After = 0
			o := play(s, small(), thenOK(20, overloaded))
			Expect(o.err).NotTo(HaveOccurred())
			Expect(o.res.Attempts).To(Equal(21))
			for _, w := range o.waits {
				Expect(w).To(BeNumerically("<=", 5*time.Minute*5/4))
			}
			Expect(o.count(recovery.EventHeartbeat)).To(BeNumerically(">", 20))
			for _, e := range o.events {
				if e.Type == recovery.EventHeartbeat {
					Expect(e.Wait).To(BeNumerically(">", 0))
				}
			}
		})
		It("ends when its wait budget runs out", func() {
			s := recovery.ClaudeCode()
			s.Persistent, s.Fallback.After, s.WaitBudget = true, 0, time.Hour
			o := play(s, small(), always(overloaded))
			Expect(o.err).To(MatchError(recovery.ErrWaitBudget))
			Expect(o.res.Waited).To(BeNumerically("<=", time.Hour))
		})
		It("still stops a permanent error at once", func() {
			s := recovery.ClaudeCode()
			s.Persistent = true
			o := play(s, small(), always(badReq))
			Expect(o.sent).To(HaveLen(1))
		})
	})

	Describe("credentials", func() {
		It("stops when the refresh fails, with both errors", func() {
			boom := errors.New("token endpoint down")
			o := play(recovery.Classifying(), small(), always(unauth),
				recovery.WithAuthRefresh(func(context.Context) error { return boom }))
			Expect(o.err).To(MatchError(recovery.ErrAuth))
			Expect(errors.Is(o.err, boom)).To(BeTrue())
			var apiErr *recovery.APIError
			Expect(errors.As(o.err, &apiErr)).To(BeTrue())
			Expect(o.sent).To(HaveLen(1))
		})
		It("refreshes once: a second 401 after the refresh stops the turn", func() {
			s := recovery.Classifying()
			s.TurnAttempts = 10 // a bound, should the refresh repeat
			refreshes := 0
			o := play(s, small(), always(unauth),
				recovery.WithAuthRefresh(func(context.Context) error { refreshes++; return nil }))
			Expect(o.err).To(MatchError(recovery.ErrAuth))
			Expect(o.sent).To(HaveLen(2))
			Expect(refreshes).To(Equal(1))
			g, _ := recovery.AsGiveUp(o.err)
			Expect(g.Reason).To(ContainSubstring("again after a refresh"))
		})
		It("stops at once without a hook", func() {
			o := play(recovery.Classifying(), small(), always(unauth))
			Expect(o.err).To(MatchError(recovery.ErrAuth))
			Expect(o.sent).To(HaveLen(1))
		})
		It("resets the attempts after a refresh", func() {
			n := 0
			o := play(recovery.Classifying(), small(), func(int, recovery.Request) answer {
				n++
				switch {
				case n <= 4:
					return status(500, "api_error", "boom")
				case n == 5:
					return unauth
				case n <= 9:
					return status(500, "api_error", "boom")
				}
				return ok("done")
			}, recovery.WithAuthRefresh(func(context.Context) error { return nil }))
			Expect(o.err).NotTo(HaveOccurred())
			Expect(o.sent).To(HaveLen(10))
		})
	})

	It("sheds a background request on the first overload, not on other failures", func() {
		req := small()
		req.Background = true
		o := play(recovery.Classifying(), req, always(overloaded))
		Expect(o.err).To(MatchError(recovery.ErrShed))
		Expect(o.sent).To(HaveLen(1))
		Expect(o.waits).To(BeEmpty())
		Expect(o.res.Fallbacks).To(BeZero())

		o = play(recovery.Classifying(), req, thenOK(1, status(500, "api_error", "boom")))
		Expect(o.err).NotTo(HaveOccurred())

		o = play(recovery.KimiCode(), req, thenOK(1, overloaded)) // kimi has no load shedding
		Expect(o.err).NotTo(HaveOccurred())
	})

	Describe("the window learnt from an overflow", func() {
		It("takes 0.85 × the counted input when the message gives no window, and plans against it", func() {
			req := turnOf("unknown-model", 4000, 20, 1000) // 20,100 tokens, no declared limits
			var sent []int
			o := play(recovery.Classifying(), req, func(_ int, r recovery.Request) answer {
				if r.Purpose == recovery.PurposeRepair {
					return ok(tokens.Text(300))
				}
				in := recovery.CountTokens(r)
				sent = append(sent, in+r.MaxTokens)
				if in > 15000 {
					return status(400, "invalid_request_error", "Input is too long for requested model.")
				}
				return ok("fits")
			})
			Expect(o.err).NotTo(HaveOccurred())
			Expect(o.res.Compactions).To(Equal(1))
			learnt := int(0.85 * 20100)
			Expect(sent[1]).To(BeNumerically("<=", learnt))
		})
		It("trusts the declared window when it explains the overflow", func() {
			req := turnOf("m", 16000, 10, 19000) // 190,100 + 16,000 > 200,000
			o := play(recovery.Classifying(), req, func(_ int, r recovery.Request) answer {
				if in := recovery.CountTokens(r); in+r.MaxTokens > 200000 {
					return status(400, "invalid_request_error", "Input is too long for requested model.")
				}
				return ok("fits")
			})
			Expect(o.err).NotTo(HaveOccurred())
			Expect(o.res.Adjustments).To(Equal(1))
			Expect(o.res.Compactions).To(BeZero())
		})
		It("gives up with ErrCompactionLimit after the most compactions", func() {
			req := turnOf("m", 4000, 40, 1000)
			o := play(recovery.Classifying(), req, func(_ int, r recovery.Request) answer {
				if r.Purpose == recovery.PurposeRepair {
					return ok(tokens.Text(9000))
				}
				return status(400, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > 5000 maximum", recovery.CountTokens(r)))
			})
			Expect(o.err).To(MatchError(recovery.ErrCompactionLimit))
			Expect(o.res.Compactions).To(Equal(3))
		})
	})

	Describe("preflight", func() {
		It("adjusts max_tokens before the first attempt, so no doomed attempt is sent", func() {
			req := turnOf("m", 16000, 10, 19000) // 190,100 + 16,000 > 200,000
			o := play(recovery.ClassifyPreflight(), req, func(_ int, r recovery.Request) answer {
				if in := recovery.CountTokens(r); in+r.MaxTokens > 200000 {
					return status(400, "invalid_request_error", "input length and `max_tokens` exceed context limit")
				}
				return ok("fits")
			})
			Expect(o.err).NotTo(HaveOccurred())
			Expect(o.sent).To(HaveLen(1))
			Expect(o.sent[0].MaxTokens).To(Equal(200000 - 190100 - 1000))
			Expect(o.res.Adjustments).To(Equal(1))
		})
		It("compacts before the first attempt when the input alone is over", func() {
			req := turnOf("m", 8000, 30, 7000) // 210,100 tokens
			o := play(recovery.ClassifyPreflight(), req, func(_ int, r recovery.Request) answer {
				if r.Purpose == recovery.PurposeRepair {
					return ok(tokens.Text(1000))
				}
				if in := recovery.CountTokens(r); in+r.MaxTokens > 200000 {
					return status(400, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > 200000 maximum", in))
				}
				return ok("fits")
			})
			Expect(o.err).NotTo(HaveOccurred())
			Expect(o.res.Attempts).To(Equal(1))
			Expect(o.res.RepairCalls).To(Equal(1))
			Expect(o.sent[0].Purpose).To(Equal(recovery.PurposeRepair))
		})
		It("lowers a max_tokens above the model's output limit", func() {
			o := play(recovery.ClassifyPreflight(), turnOf("m", 100000, 2, 100), always(ok("fine")))
			Expect(o.sent[0].MaxTokens).To(Equal(64000))
		})
		It("without limits sends the request as it is", func() {
			o := play(recovery.ClassifyPreflight(), turnOf("nameless", 100000, 2, 100), always(ok("fine")))
			Expect(o.sent[0].MaxTokens).To(Equal(100000))
		})
	})
})
