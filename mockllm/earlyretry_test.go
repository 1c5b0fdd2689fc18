package mockllm_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("a scripted wait", func() {
	var (
		clk  *clock.Virtual
		srv  *mockllm.Server
		good string
	)

	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual())
		Expect(srv.Open(scName, "s", clk)).To(Succeed())
	}
	retryAfter3 := func(early string) scenario.Rule {
		return scenario.Rule{Times: 2, Respond: scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "3"}, EarlyRetry: early}}
	}

	BeforeEach(func() {
		clk = clock.NewVirtual()
		good = ask("sonnet", 1000, 100)
	})

	It("refuses a retry before it, asking for the wait left, without using the rule up", func() {
		serve(retryAfter3(""))
		Expect(to("s").send(srv, good).Code).To(Equal(429))
		clk.Advance(time.Second) // too soon
		early := to("s").send(srv, good)
		Expect(early.Code).To(Equal(429))
		Expect(early.Header().Get("retry-after")).To(Equal("2"))
		clk.Advance(2 * time.Second) // the wait kept: the rule's second use
		Expect(to("s").send(srv, good).Code).To(Equal(429))
		clk.Advance(3 * time.Second)
		Expect(to("s").send(srv, good).Code).To(Equal(200))

		var rules []int
		for _, e := range srv.Entries(scName, "s") {
			rules = append(rules, e.Rule)
		}
		Expect(rules).To(Equal([]int{1, 1, 1, 0}))
	})

	It("states the wait left in the rule's own retry-after", func() {
		serve(scenario.Rule{Respond: scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "3600"}}})
		Expect(to("s").send(srv, good).Code).To(Equal(429))
		clk.Advance(time.Minute)
		Expect(to("s").send(srv, good).Header().Get("retry-after")).To(Equal("3540"))
	})

	It("hands a retry before it to the script with early_retry: scripted", func() {
		serve(retryAfter3(scenario.EarlyRetryScripted))
		Expect(statuses(srv, to("s"), good, 3)).To(Equal([]int{429, 429, 200}))
	})

	It("holds the model that asked, not another", func() {
		serve(scenario.Rule{When: scenario.When{Model: "sonnet"}, Times: 1, Respond: scenario.Respond{Status: 529, Headers: map[string]string{"retry-after": "5"}}})
		Expect(to("s").send(srv, good).Code).To(Equal(529))
		Expect(to("s").send(srv, ask("haiku", 100, 100)).Code).To(Equal(200))
		Expect(to("s").send(srv, good).Code).To(Equal(529))
	})

	It("opens no window for an error that asks for no wait", func() {
		serve(scenario.Rule{Times: 1, Respond: status(503)})
		Expect(statuses(srv, to("s"), good, 2)).To(Equal([]int{503, 200}))
	})

	It("states the wait left in retry-after-ms when the rule wrote that", func() {
		serve(scenario.Rule{Times: 1, Respond: scenario.Respond{Status: 503, Headers: map[string]string{"retry-after-ms": "1500"}}})
		Expect(to("s").send(srv, good).Code).To(Equal(503))
		clk.Advance(1200 * time.Millisecond)
		early := to("s").send(srv, good)
		Expect(early.Code).To(Equal(503))
		Expect(early.Header().Get("retry-after-ms")).To(Equal("300"))
		clk.Advance(300 * time.Millisecond)
		Expect(to("s").send(srv, good).Code).To(Equal(200))
	})
})
