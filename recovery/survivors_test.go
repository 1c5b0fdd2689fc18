package recovery_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/recovery"
)

// distinct builds a conversation of n messages that can be told apart:
// message i says "message i" and is padded to per tokens.
func distinct(model string, maxTokens, n, per int) recovery.Request {
	r := recovery.Request{Model: model, MaxTokens: maxTokens, System: tokens.Text(100)}
	for i := range n {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		label := fmt.Sprintf("message %d ", i)
		r.Messages = append(r.Messages, recovery.Message{Role: role, Text: label + tokens.Text(per-tokens.Count(label))})
	}
	return r
}

// cancellingClock is a virtual clock whose every Sleep ends the turn's
// context first, as a caller giving up mid-wait would.
type cancellingClock struct {
	*clock.Virtual
	cancel context.CancelFunc
	sleeps int
}

func (c *cancellingClock) Sleep(ctx context.Context, d time.Duration) error {
	c.sleeps++
	c.cancel()
	return c.Virtual.Sleep(ctx, d)
}

// Behaviours the mutation check (docs/mutation.md) once found no test
// could see.
var _ = Describe("what earlier tests could not tell apart", func() {
	It("compaction keeps the newest messages and summarises the oldest", func() {
		o, summary := compactOnce(distinct("m", 4000, 12, 1000), "prompt is too long: 250000 tokens > 200000 maximum")
		Expect(o.err).NotTo(HaveOccurred())
		after := o.sent[len(o.sent)-1]
		Expect(after.Messages).To(HaveLen(7), "the summary and the 6 most recent")
		for i, m := range after.Messages[1:] {
			Expect(m.Text).To(HavePrefix(fmt.Sprintf("message %d ", 6+i)))
		}
		Expect(after.Messages[0].Text).To(ContainSubstring("the summary"))
		Expect(summary.Messages[0].Text).To(HavePrefix("message 0 "), "the oldest go to the summary")
	})

	It("trims the summary request to the window, dropping the oldest", func() {
		o, summary := compactOnce(distinct("m", 4000, 30, 1000), "prompt is too long: 30100 tokens > 20000 maximum")
		Expect(o.err).NotTo(HaveOccurred())
		Expect(recovery.CountTokens(summary) + summary.MaxTokens).To(BeNumerically("<=", 20000))
		Expect(summary.Messages[0].Text).NotTo(HavePrefix("message 0 "))
		Expect(summary.Messages[len(summary.Messages)-2].Text).To(HavePrefix("message 23 "), "the newest of the summarised kept")
	})

	DescribeTable("preflight sends a request that fits the window exactly, not one token more",
		func(extra int, adjusted bool) {
			req := turnOf("m", 8000, 4, 100)
			window := recovery.CountTokens(req) + req.MaxTokens + extra
			o := play(recovery.ClassifyPreflight(), req, always(ok("fine")),
				recovery.WithLimits(map[string]recovery.Limits{"m": {ContextWindow: window - 2*extra, MaxOutput: 64000}}))
			Expect(o.err).NotTo(HaveOccurred())
			Expect(o.res.Adjustments > 0 || o.res.Compactions > 0).To(Equal(adjusted))
		},
		Entry("input + max_tokens == window", 0, false),
		Entry("input + max_tokens == window + 1", 1, true),
	)

	It("ends the turn when the context ends during a wait", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		clk := &cancellingClock{Virtual: clock.NewVirtual(), cancel: cancel}
		p := &fake{script: always(status(529, "overloaded_error", "o"))}
		res, err := recovery.New(p, recovery.Classifying(), recovery.WithClock(clk), recovery.WithRand(rand.New(rand.NewPCG(1, 1)))).Do(ctx, small())
		g, ok := recovery.AsGiveUp(err)
		Expect(ok).To(BeTrue())
		Expect(g.Stop).To(Equal(recovery.StopCancelled))
		Expect(p.sent).To(HaveLen(1))
		Expect(clk.sleeps).To(Equal(1))
		Expect(res.Waited).To(BeZero(), "the wait was cut short, not spent")
	})

	It("counts only overloads toward the fallback, not server errors", func() {
		o := play(recovery.Classifying(), small(), always(status(500, "api_error", "x")))
		Expect(o.models()).To(HaveEach("m"))
		Expect(o.sent).To(HaveLen(5))
		Expect(o.stop()).To(Equal(recovery.StopAttempts))
	})

	It("counts consecutive overloads: any other failure starts the count again", func() {
		seq := func(kinds ...int) func(int, recovery.Request) answer {
			return func(n int, r recovery.Request) answer {
				if r.Model == "backup" {
					return ok("backup")
				}
				if n <= len(kinds) && kinds[n-1] == 500 {
					return status(500, "api_error", "x")
				}
				return status(529, "overloaded_error", "o")
			}
		}
		// A 500 first: three more overloads are needed.
		o := play(recovery.Classifying(), small(), seq(500, 529, 529, 529))
		Expect(o.models()).To(Equal([]string{"m", "m", "m", "m", "backup"}))
		// A 500 between overloads resets the count.
		o = play(recovery.Classifying(), small(), seq(529, 500, 529, 529, 529))
		Expect(o.models()).To(Equal([]string{"m", "m", "m", "m", "m", "backup"}))
	})

	It("gives the backup model a fresh count of attempts", func() {
		o := play(recovery.Classifying(), small(), func(_ int, r recovery.Request) answer {
			if r.Model == "backup" {
				return status(500, "api_error", "x")
			}
			return status(529, "overloaded_error", "o")
		})
		Expect(o.models()).To(Equal([]string{"m", "m", "m", "backup", "backup", "backup", "backup", "backup"}))
	})

	It("claude-code's adjusted request has only the step's remaining attempts", func() {
		s := recovery.ClaudeCode()
		s.Attempts = 3
		over := apiErr(400, anthropicBody("invalid_request_error", "input length and `max_tokens` exceed context limit: 10000 + 16000 > 20000"))
		o := play(s, turnOf("m", 16000, 4, 100), func(n int, _ recovery.Request) answer {
			if n == 1 {
				return over
			}
			return status(500, "api_error", "x")
		})
		Expect(o.res.Adjustments).To(Equal(1))
		Expect(o.sent).To(HaveLen(3), "the overflow, then two 500s: three attempts in one step")
	})

	It("gives an escalation a fresh count of attempts", func() {
		s := recovery.Classifying()
		s.Attempts = 2
		o := play(s, small(), func(n int, r recovery.Request) answer {
			if n == 1 {
				return cut(r.MaxTokens)
			}
			return status(500, "api_error", "x")
		})
		Expect(o.sent).To(HaveLen(3), "the truncated answer, then two attempts of the escalated step")
		Expect(o.sent[1].MaxTokens).To(Equal(8192))
	})
})

// compactOnce plays req under classify against a model that refuses the
// first request with the overflow msg, then answers: the outcome, and the
// summarisation request the compaction sent.
func compactOnce(req recovery.Request, msg string) (outcome, recovery.Request) {
	var summary recovery.Request
	o := play(recovery.Classifying(), req, func(n int, r recovery.Request) answer {
		if r.Purpose == recovery.PurposeRepair {
			summary = r
			return ok("the summary")
		}
		if n == 1 {
			return apiErr(400, anthropicBody("invalid_request_error", msg))
		}
		return ok("fits")
	})
	return o, summary
}
