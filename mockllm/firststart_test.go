package mockllm_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("a session opened to start at its first request", func() {
	It("keeps its script's clock still until the first request, as serve's sessions do", func() {
		clk := clock.NewVirtual()
		srv := mockllm.New([]*scenario.Scenario{newScenario(
			rule(scenario.When{Before: secs(2)}, status(529)),
			rule(scenario.When{}, ok),
		)}, clk)
		Expect(srv.OpenAtFirstRequest(scName, "late", nil)).To(Succeed())
		Expect(srv.Open(scName, "early", nil)).To(Succeed())
		_, started := srv.Started(scName, "late")
		Expect(started).To(BeFalse())

		clk.Advance(5 * time.Second) // the client takes 5 s to start
		Expect(to("late").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(529), "inside the window: it opened at the first request")
		Expect(to("early").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(200), "the window closed 3 s ago")
		start, started := srv.Started(scName, "late")
		Expect(started).To(BeTrue())
		Expect(start).To(Equal(clock.Epoch.Add(5 * time.Second)))
		Expect(srv.Entries(scName, "late")[0].TimeMS).To(BeZero())

		Expect(srv.OpenAtFirstRequest(scName, "late", nil)).To(HaveOccurred(), "a session open already")
		_, started = srv.Started(scName, "none")
		Expect(started).To(BeFalse())
	})
})
