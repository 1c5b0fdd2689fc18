package mockllm_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("scenarios added after New", func() {
	It("serves one from Add to Remove, its sessions going with it", func() {
		srv := mockllm.New(nil, clock.NewVirtual())
		body := ask("sonnet", 1000, 100)
		Expect(to("a").send(srv, body).Code).To(Equal(404))

		Expect(srv.Add(newScenario(scenario.Rule{Respond: status(529)}))).To(Succeed())
		Expect(srv.Add(newScenario())).To(MatchError(ContainSubstring("served already")))
		Expect(to("a").send(srv, body).Code).To(Equal(529))
		Expect(srv.Entries(scName, "a")).To(HaveLen(1))

		srv.Remove(scName)
		Expect(srv.Entries(scName, "a")).To(BeEmpty())
		Expect(to("a").send(srv, body).Code).To(Equal(404))
		Expect(srv.Add(newScenario())).To(Succeed())
		Expect(to("a").send(srv, body).Code).To(Equal(200))
	})

	It("opens a fleet of an added scenario, as of one New was given", func() {
		srv := mockllm.New(nil, clock.NewVirtual())
		Expect(srv.Add(newScenario())).To(Succeed())
		Expect(srv.OpenFleet(scName, []string{"f1", "f2"}, []mockllm.Clock{clock.NewVirtual(), clock.NewVirtual()})).To(Succeed())
		Expect(to("f1").send(srv, ask("sonnet", 1000, 100)).Code).To(Equal(200))
		Expect(srv.OpenFleet("nope", nil, nil)).To(MatchError(ContainSubstring(`unknown scenario "nope"`)))
	})

	It("refills an added scenario's buckets on a reset, as those of New (POST /_faultbench/reset)", func() {
		srv := mockllm.New(nil, clock.NewVirtual())
		Expect(srv.Add(quotaScenario(scenario.RateLimits{RPM: 1}, scenario.Capacity{}, scenario.Speed{}))).To(Succeed())
		Expect(statuses(srv, to("a"), ask("sonnet", 100, 10), 2)).To(Equal([]int{200, 429}))
		reset := httptest.NewRequest(http.MethodPost, mockllm.ResetPath, nil)
		srv.ServeHTTP(httptest.NewRecorder(), reset)
		Expect(to("a").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(http.StatusOK), "the bucket refilled by the reset")
	})

	It("refuses an add past MaxAdded, and takes one again after a Remove", func() {
		srv := mockllm.New(nil, clock.NewVirtual())
		for i := range mockllm.MaxAdded {
			sc := newScenario()
			sc.Name = fmt.Sprintf("s%d", i)
			Expect(srv.Add(sc)).To(Succeed())
		}
		Expect(srv.Add(newScenario())).To(MatchError(mockllm.ErrTooMany))
		Expect(srv.Remove("s0")).To(BeTrue())
		Expect(srv.Remove("s0")).To(BeFalse())
		Expect(srv.Add(newScenario())).To(Succeed())
	})

	It("refuses a name New was given, and no scenario at all", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		Expect(srv.Add(newScenario())).To(MatchError(ContainSubstring("made with it")))
		Expect(srv.Add(newScenario())).To(MatchError(mockllm.ErrServed))
		Expect(srv.Add(nil)).To(HaveOccurred())
	})
})
