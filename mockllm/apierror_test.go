package mockllm_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// A stream's error event has a type and no status; a request that does not
// stream meets it as the status the real API sends that type with.
var _ = DescribeTable("an error event met by a request that does not stream",
	func(typ string, want int) {
		srv := mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Times: 1,
			Respond: scenario.Respond{Type: typ, Fault: scenario.Fault{Kind: scenario.FaultError, After: 1}}})}, clock.NewVirtual())
		ep, hc := live(srv)
		resp, err := post(context.Background(), hc, "http://"+ep.Addr+"/sc/v1/messages", "a", ask("sonnet", 10, 10))
		Expect(err).NotTo(HaveOccurred())
		_, _ = readAll(resp)
		Expect(resp.StatusCode).To(Equal(want))
	},
	Entry("overloaded", "overloaded_error", 529),
	Entry("no type: an overload", "", 529),
	Entry("rate limit", "rate_limit_error", 429),
	Entry("invalid request", "invalid_request_error", 400),
	Entry("request too large", "request_too_large", 413),
	Entry("an unknown type", "teapot_error", 500),
)
