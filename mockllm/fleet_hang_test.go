package mockllm_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/within"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// nowOnly is a clock that can tell the time and do nothing else: no Wait,
// no Sleep.
type nowOnly struct{}

func (nowOnly) Now() time.Time { return clock.Epoch }

var _ = Describe("a clock that can only tell the time", func() {
	It("still holds a hung request until the client gives up", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultHang}}})}, nowOnly{})
		ep, hc := live(srv)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		errs := make(chan error, 1)
		go func() {
			resp, err := post(ctx, hc, ep.BaseURL(scName)+"v1/messages", "s", ask("sonnet", 10, 10))
			if err == nil {
				_, err = readAll(resp)
			}
			errs <- err
		}()
		Consistently(errs, "100ms").ShouldNot(Receive())
		cancel()
		Expect(within.Recv(GinkgoT(), errs, "the client to give up")).To(MatchError(context.Canceled))
	})
})

var _ = Describe("a fleet's clocks", func() {
	It("are one per session", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		err := srv.OpenFleet(scName, []string{"f1", "f2"}, []mockllm.Clock{clock.NewVirtual()})
		Expect(err).To(MatchError(ContainSubstring("2 sessions, 1 clocks")))
		err = srv.OpenFleet(scName, []string{"f1"}, []mockllm.Clock{clock.NewVirtual(), clock.NewVirtual()})
		Expect(err).To(MatchError(ContainSubstring("1 sessions, 2 clocks")))
	})
})
