package recovery_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/recovery"
)

// answer is one scripted reply of the fake provider.
type answer struct {
	resp *recovery.Response
	err  error
}

func ok(text string) answer {
	return answer{resp: &recovery.Response{Text: text, StopReason: "end_turn", OutputTokens: tokens.Count(text)}}
}

func cut(maxTokens int) answer {
	return answer{resp: &recovery.Response{Text: tokens.Text(maxTokens), StopReason: "max_tokens", OutputTokens: maxTokens}}
}

func status(code int, typ, msg string, header ...string) answer {
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return answer{err: &recovery.APIError{StatusCode: code, Type: typ, Message: msg, Header: h}}
}

// fake answers requests from a script and keeps what it was sent.
type fake struct {
	script func(n int, req recovery.Request) answer
	sent   []recovery.Request
}

func (f *fake) Send(_ context.Context, req recovery.Request) (*recovery.Response, error) {
	f.sent = append(f.sent, req.Clone())
	a := f.script(len(f.sent), req)
	return a.resp, a.err
}

// turnOf builds a conversation of n messages of per tokens each.
func turnOf(model string, maxTokens, n, per int) recovery.Request {
	r := recovery.Request{Model: model, MaxTokens: maxTokens, System: tokens.Text(100)}
	for i := range n {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		r.Messages = append(r.Messages, recovery.Message{Role: role, Text: tokens.Text(per)})
	}
	return r
}

var _ = Describe("Engine", func() {
	var (
		clk    *clock.Virtual
		events []recovery.Event
		p      *fake
	)
	BeforeEach(func() {
		clk = clock.NewVirtual()
		events = nil
		p = &fake{}
	})
	engine := func(s recovery.Strategy, opts ...recovery.Option) *recovery.Engine {
		opts = append([]recovery.Option{
			recovery.WithClock(clk),
			recovery.WithRand(rand.New(rand.NewPCG(1, 2))),
			recovery.WithObserver(func(e recovery.Event) { events = append(events, e) }),
		}, opts...)
		return recovery.New(p, s, opts...)
	}
	waited := func() time.Duration { return clk.Now().Sub(clock.Epoch) }
	count := func(t recovery.EventType) int {
		n := 0
		for _, e := range events {
			if e.Type == t {
				n++
			}
		}
		return n
	}

	Describe("blind", func() {
		It("sleeps base·2^i after every failure, the last one included, then gives up", func() {
			p.script = func(int, recovery.Request) answer { return status(529, "overloaded_error", "Overloaded") }
			res, err := engine(recovery.Blind()).Do(context.Background(), turnOf("m", 1000, 2, 10))
			Expect(err).To(MatchError(recovery.ErrGaveUp))
			Expect(res.Attempts).To(Equal(5))
			Expect(waited()).To(Equal(31 * time.Second))
			Expect(res.Waited).To(Equal(31 * time.Second))
		})
		It("takes any HTTP 200 as done, even a truncated one", func() {
			p.script = func(int, recovery.Request) answer { return cut(1000) }
			res, err := engine(recovery.Blind()).Do(context.Background(), turnOf("m", 1000, 2, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Response.StopReason).To(Equal("max_tokens"))
			Expect(res.Attempts).To(Equal(1))
		})
	})

	Describe("classify", func() {
		It("waits what retry-after asks instead of the backoff", func() {
			p.script = func(n int, _ recovery.Request) answer {
				if n == 1 {
					return status(429, "rate_limit_error", "slow down", "retry-after", "7")
				}
				return ok("done")
			}
			res, err := engine(recovery.Classifying()).Do(context.Background(), turnOf("m", 1000, 2, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Attempts).To(Equal(2))
			Expect(waited()).To(Equal(7 * time.Second))
		})
		It("caps a server-requested wait", func() {
			p.script = func(n int, _ recovery.Request) answer {
				if n == 1 {
					return status(429, "rate_limit_error", "slow down", "retry-after", "3600")
				}
				return ok("done")
			}
			_, err := engine(recovery.Classifying()).Do(context.Background(), turnOf("m", 1000, 2, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(waited()).To(Equal(60 * time.Second))
		})
		It("never sleeps after its final attempt", func() {
			p.script = func(int, recovery.Request) answer { return status(500, "api_error", "Internal server error") }
			res, err := engine(recovery.Classifying()).Do(context.Background(), turnOf("m", 1000, 2, 10))
			Expect(err).To(MatchError(recovery.ErrGaveUp))
			Expect(res.Attempts).To(Equal(5))
			Expect(waited()).To(Equal(15 * time.Second)) // 1+2+4+8, nothing after the fifth
			Expect(events[len(events)-1].Type).To(Equal(recovery.EventGiveUp))
			Expect(events[len(events)-2].Type).To(Equal(recovery.EventAttempt))
		})
		It("stops at once on an invalid request and wraps the error", func() {
			p.script = func(int, recovery.Request) answer {
				return status(400, "invalid_request_error", "tools.0.input_schema: JSON schema is invalid")
			}
			res, err := engine(recovery.Classifying()).Do(context.Background(), turnOf("m", 1000, 2, 10))
			Expect(res.Attempts).To(Equal(1))
			Expect(waited()).To(BeZero())
			g, isGiveUp := recovery.AsGiveUp(err)
			Expect(isGiveUp).To(BeTrue())
			Expect(g.Kind).To(Equal(recovery.KindInvalidRequest))
			var apiErr *recovery.APIError
			Expect(errors.As(err, &apiErr)).To(BeTrue())
			Expect(apiErr.StatusCode).To(Equal(400))
		})
		It("obeys x-should-retry: false", func() {
			p.script = func(int, recovery.Request) answer {
				return status(500, "api_error", "no", "x-should-retry", "false")
			}
			res, err := engine(recovery.Classifying()).Do(context.Background(), turnOf("m", 1000, 2, 10))
			Expect(err).To(MatchError(recovery.ErrGaveUp))
			Expect(res.Attempts).To(Equal(1))
		})
		It("switches to the fallback after three consecutive overloads, with no wait before the switch", func() {
			p.script = func(_ int, req recovery.Request) answer {
				if req.Model == "primary" {
					return status(529, "overloaded_error", "Overloaded")
				}
				return ok("from backup")
			}
			res, err := engine(recovery.Classifying(), recovery.WithFallbacks("backup")).Do(context.Background(), turnOf("primary", 1000, 2, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Attempts).To(Equal(4))
			Expect(res.Fallbacks).To(Equal(1))
			Expect(waited()).To(Equal(3 * time.Second)) // 1 + 2, none before the switch
			Expect(p.sent[3].Model).To(Equal("backup"))
		})
		It("skips a fallback that names the turn's own model: it would only resend to it", func() {
			p.script = func(_ int, req recovery.Request) answer {
				if req.Model == "primary" {
					return status(529, "overloaded_error", "Overloaded")
				}
				return ok("from backup")
			}
			res, err := engine(recovery.Classifying(), recovery.WithFallbacks("primary", "backup")).Do(context.Background(), turnOf("primary", 1000, 2, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Fallbacks).To(Equal(1))
			Expect(p.sent[3].Model).To(Equal("backup"))
		})
		It("raises max_tokens ×2 on a truncated answer, bounded by the output limit", func() {
			p.script = func(_ int, req recovery.Request) answer {
				if req.MaxTokens < 5000 {
					return cut(req.MaxTokens)
				}
				return ok("whole")
			}
			limits := map[string]recovery.Limits{"m": {ContextWindow: 200000, MaxOutput: 6000}}
			res, err := engine(recovery.Classifying(), recovery.WithLimits(limits)).Do(context.Background(), turnOf("m", 2000, 2, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Escalations).To(Equal(2))
			Expect(p.sent[1].MaxTokens).To(Equal(4000))
			Expect(p.sent[2].MaxTokens).To(Equal(6000))
		})
		It("hands back a truncated answer when max_tokens cannot grow", func() {
			p.script = func(_ int, req recovery.Request) answer { return cut(req.MaxTokens) }
			limits := map[string]recovery.Limits{"m": {ContextWindow: 200000, MaxOutput: 4000}}
			res, err := engine(recovery.Classifying(), recovery.WithLimits(limits)).Do(context.Background(), turnOf("m", 4000, 2, 10))
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Response.StopReason).To(Equal("max_tokens"))
			Expect(res.Attempts).To(Equal(1))
		})
		It("lowers max_tokens to window − input − buffer when the input alone fits", func() {
			req := turnOf("m", 16000, 10, 1000) // 100 + 10,000 input tokens
			input := recovery.CountTokens(req)
			p.script = func(_ int, r recovery.Request) answer {
				if in := recovery.CountTokens(r); in+r.MaxTokens > 20000 {
					return status(400, "invalid_request_error",
						fmt.Sprintf("input length and `max_tokens` exceed context limit: %d + %d > 20000, decrease input length or `max_tokens` and try again", in, r.MaxTokens))
				}
				return ok("fits")
			}
			res, err := engine(recovery.Classifying()).Do(context.Background(), req)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Adjustments).To(Equal(1))
			Expect(p.sent[1].MaxTokens).To(Equal(20000 - input - 1000))
			Expect(waited()).To(BeZero())
		})
		It("compacts through one repair call when the input itself is too long", func() {
			req := turnOf("m", 4000, 20, 1000) // 20,100 input tokens
			p.script = func(_ int, r recovery.Request) answer {
				if r.Purpose == recovery.PurposeRepair {
					return ok(tokens.Text(500))
				}
				if in := recovery.CountTokens(r); in > 15000 {
					return status(400, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > 15000 maximum", in))
				}
				return ok("fits")
			}
			res, err := engine(recovery.Classifying()).Do(context.Background(), req)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Compactions).To(Equal(1))
			Expect(res.RepairCalls).To(Equal(1))
			Expect(p.sent[1].Purpose).To(Equal(recovery.PurposeRepair))
			last := p.sent[2]
			Expect(last.Messages).To(HaveLen(7)) // the summary, then the 6 most recent
			Expect(last.Messages[1:]).To(Equal(req.Messages[14:]))
			Expect(recovery.CountTokens(last) + last.MaxTokens).To(BeNumerically("<=", 15000))
			Expect(count(recovery.EventCompact)).To(Equal(1))
		})
		It("drops the fewest oldest messages the summarisation needs to fit, with a handful of counts", func() {
			req := turnOf("m", 4000, 10000, 10) // 100,100 input tokens
			p.script = func(_ int, r recovery.Request) answer {
				if r.Purpose == recovery.PurposeRepair {
					return ok(tokens.Text(500))
				}
				if in := recovery.CountTokens(r); in > 25000 {
					return status(400, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > 25000 maximum", in))
				}
				return ok("fits")
			}
			counts := 0
			counter := func(r recovery.Request) int { counts++; return recovery.CountTokens(r) }
			limits := map[string]recovery.Limits{"m": {ContextWindow: 30000, MaxOutput: 8000}}
			res, err := engine(recovery.Classifying(), recovery.WithLimits(limits), recovery.WithCounter(counter)).Do(context.Background(), req)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Compactions).To(Equal(1))
			repair := p.sent[1]
			Expect(repair.Purpose).To(Equal(recovery.PurposeRepair))
			Expect(recovery.CountTokens(repair) + repair.MaxTokens).To(BeNumerically("<=", 25000)) // the window the overflow taught
			// one message more would not have fitted
			Expect(recovery.CountTokens(repair) + 10 + repair.MaxTokens).To(BeNumerically(">", 25000))
			Expect(repair.Messages[0]).To(Equal(req.Messages[10000-6-len(repair.Messages)+1]))
			// one count per halving, not one per message dropped (about 7,000)
			Expect(counts).To(BeNumerically("<", 100))
		})
		It("gives up after three compactions", func() {
			req := turnOf("m", 4000, 40, 1000)
			p.script = func(_ int, r recovery.Request) answer {
				if r.Purpose == recovery.PurposeRepair {
					return ok(tokens.Text(9000)) // a summary too long to help
				}
				return status(400, "invalid_request_error", fmt.Sprintf("prompt is too long: %d tokens > 5000 maximum", recovery.CountTokens(r)))
			}
			res, err := engine(recovery.Classifying()).Do(context.Background(), req)
			Expect(err).To(MatchError(recovery.ErrGaveUp))
			Expect(res.Compactions).To(Equal(3))
			g, _ := recovery.AsGiveUp(err)
			Expect(g.Kind).To(Equal(recovery.KindContextOverflow))
			Expect(g.Reason).To(ContainSubstring("3 compactions"))
		})
		It("stops at once when the context is cancelled, without sleeping", func() {
			ctx, cancel := context.WithCancel(context.Background())
			p.script = func(int, recovery.Request) answer {
				cancel()
				return status(529, "overloaded_error", "Overloaded")
			}
			res, err := engine(recovery.Classifying()).Do(ctx, turnOf("m", 1000, 2, 10))
			Expect(err).To(MatchError(context.Canceled))
			Expect(res.Attempts).To(Equal(1))
			Expect(waited()).To(BeZero())
			Expect(count(recovery.EventWait)).To(BeZero())
		})
		It("respects the wait budget", func() {
			s := recovery.Classifying()
			s.WaitBudget = 2 * time.Second
			p.script = func(int, recovery.Request) answer { return status(503, "api_error", "unavailable") }
			res, err := engine(s).Do(context.Background(), turnOf("m", 1000, 2, 10))
			Expect(err).To(MatchError(recovery.ErrGaveUp))
			Expect(res.Waited).To(BeNumerically("<=", 2*time.Second))
			Expect(res.Attempts).To(Equal(2))
		})
	})
})
