package mockllm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("A model's speed", func() {
	// 50 output tokens at 25 per second after 400ms: 2.4s in flight.
	speed := scenario.Speed{FirstToken: scenario.Duration(400 * time.Millisecond), OutputTokensPerSecond: 25}
	const inFlight = 2400 * time.Millisecond

	It("makes an answer take first_token and its output's generation on the session's clock", func() {
		srv := mockllm.New([]*scenario.Scenario{quotaScenario(scenario.RateLimits{}, scenario.Capacity{}, speed)}, clock.NewVirtual())
		c := clock.NewVirtual()
		Expect(srv.Open(scName, "a", c)).To(Succeed())
		Expect(messageOf(to("a").send(srv, ask("sonnet", 100, 10))).Usage.OutputTokens).To(Equal(answerTokens))
		Expect(c.Now().Sub(clock.Epoch)).To(Equal(inFlight))
		w := to("a").send(srv, `{"model":"sonnet","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
		Expect(w.Code).To(Equal(http.StatusOK))
		Expect(w.Body.String()).To(HavePrefix("event: message_start"))
		Expect(w.Body.String()).To(ContainSubstring("event: message_stop"))
		Expect(c.Now().Sub(clock.Epoch)).To(Equal(2 * inFlight))
	})

	It("sends a stream's first event, flushed, before it waits for the generation of the rest", func() {
		srv := mockllm.New([]*scenario.Scenario{quotaScenario(scenario.RateLimits{}, scenario.Capacity{}, speed)}, clock.NewVirtual())
		w := httptest.NewRecorder()
		c := &watch{Virtual: clock.NewVirtual(), w: w}
		Expect(srv.Open(scName, "a", c)).To(Succeed())
		r := httptest.NewRequest(http.MethodPost, "/"+scName+"/v1/messages",
			strings.NewReader(`{"model":"sonnet","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set(mockllm.SessionHeader, "a")
		srv.ServeHTTP(w, r)
		Expect(c.seen).To(HaveLen(2)) // the first token, then the rest
		Expect(c.seen[0]).To(BeEmpty())
		Expect(c.seen[1]).To(And(HavePrefix("event: message_start"), HaveSuffix("}}\n\n"), Not(ContainSubstring("content_block_start"))))
		Expect(c.flushed[1]).To(BeTrue())
		Expect(w.Body.String()).To(ContainSubstring("event: message_stop"))
	})

	It("leaves errors, faults and a model without speed at once", func() {
		sc := quotaScenario(scenario.RateLimits{}, scenario.Capacity{}, speed,
			rule(scenario.When{Attempt: 1}, status(529)),
			rule(scenario.When{Attempt: 2}, scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultEmpty}}))
		srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		c := clock.NewVirtual()
		Expect(srv.Open(scName, "a", c)).To(Succeed())
		Expect(statuses(srv, to("a"), ask("sonnet", 100, 10), 2)).To(Equal([]int{529, 200}))
		Expect(to("a").send(srv, ask("haiku", 100, 10)).Code).To(Equal(http.StatusOK))
		Expect(c.Now()).To(Equal(clock.Epoch))
	})

	It("journals a timeout when the answer comes after the client's deadline", func() {
		slow := scenario.Speed{OutputTokensPerSecond: 1} // 50s for 50 tokens
		srv := mockllm.New([]*scenario.Scenario{quotaScenario(scenario.RateLimits{}, scenario.Capacity{}, slow)}, clock.NewVirtual())
		g := newGate()
		g.deadline = clock.Epoch.Add(10 * time.Second)
		Expect(srv.Open(scName, "a", g)).To(Succeed())
		to("a").send(srv, ask("sonnet", 100, 10))
		e := srv.Entries(scName, "a")[0]
		Expect(e.Status).To(Equal(0))
		Expect(e.Kind).To(Equal("timeout"))
	})
})

// watch is a virtual clock that notes, at each wait, what the answer had
// written and whether it had flushed it.
type watch struct {
	*clock.Virtual
	w       *httptest.ResponseRecorder
	seen    []string
	flushed []bool
}

var _ mockllm.Waiter = (*watch)(nil)

func (c *watch) Wait(ctx context.Context, d time.Duration) error {
	c.seen, c.flushed = append(c.seen, c.w.Body.String()), append(c.flushed, c.w.Flushed)
	return c.Sleep(ctx, d)
}

func (c *watch) ClientDeadline() (time.Time, bool) { return time.Time{}, false }
