package mockllm_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the journal tells what the client got", func() {
	var srv *mockllm.Server
	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual())
	}
	streamed := strings.Replace(ask("sonnet", 1000, 10), "{", `{"stream":true,`, 1)

	DescribeTable("a 200 a fault broke: the output sent, and no stop reason",
		func(f scenario.Fault, stream bool, want int) {
			serve(scenario.Rule{Respond: scenario.Respond{Fault: f}})
			body := ask("sonnet", 1000, 10)
			if stream {
				body = streamed
			}
			to("s").send(srv, body)
			e := srv.Entries(scName, "s")[0]
			Expect(e.Status).To(Equal(200))
			Expect(e.StopReason).To(BeEmpty())
			Expect(e.OutputTokens).To(Equal(want))
		},
		// message_start, content_block_start, ping, then deltas of 64 bytes (16 tokens).
		Entry("a stream cut after 5 events: two deltas", scenario.Fault{Kind: scenario.FaultCut, After: 5}, true, 32),
		Entry("a stream cut before any delta", scenario.Fault{Kind: scenario.FaultCut, After: 3}, true, 0),
		Entry("an error after 4 events: one delta", scenario.Fault{Kind: scenario.FaultError, After: 4}, true, 16),
		Entry("a malformed stream", scenario.Fault{Kind: scenario.FaultMalformed}, true, 0),
		Entry("an empty stream", scenario.Fault{Kind: scenario.FaultEmpty}, true, 0),
		Entry("a body cut in half", scenario.Fault{Kind: scenario.FaultCut}, false, 0),
		Entry("a malformed body", scenario.Fault{Kind: scenario.FaultMalformed}, false, 0),
	)

	It("a whole answer keeps its output and stop reason, streamed or not", func() {
		serve()
		to("s").send(srv, streamed)
		to("s").send(srv, ask("sonnet", 1000, 10))
		for _, e := range srv.Entries(scName, "s") {
			Expect(e.OutputTokens).To(Equal(answerTokens))
			Expect(e.StopReason).To(Equal("end_turn"))
		}
	})

	It("knows a resend by its body, without the SDKs' retry-count header", func() {
		serve(scenario.Rule{Times: 2, Respond: status(529)})
		a, b := ask("sonnet", 1000, 10), ask("sonnet", 1000, 11)
		for _, body := range []string{a, a, b, a} {
			to("s").send(srv, body)
		}
		to("other").send(srv, a)
		var resends []int
		for _, e := range srv.Entries(scName, "s") {
			Expect(e.RetryCount).To(BeNil())
			resends = append(resends, e.Resend)
		}
		Expect(resends).To(Equal([]int{0, 1, 0, 2}))
		Expect(srv.Entries(scName, "other")[0].Resend).To(BeZero(), "another session's body is not a resend")
	})

	It("knows a resend in a session the harness opened, byte for byte the last body or not", func() {
		serve(scenario.Rule{Times: 2, Respond: status(529)})
		Expect(srv.Open(scName, "opened", nil)).To(Succeed())
		a, b := ask("sonnet", 1000, 10), ask("sonnet", 1001, 10) // of one length
		spaced := strings.Replace(a, ",", " , ", -1)             // the same JSON, other bytes
		for _, body := range []string{a, a, b, b, spaced, a, b} {
			to("opened").send(srv, body)
		}
		var resends []int
		for _, e := range srv.Entries(scName, "opened") {
			resends = append(resends, e.Resend)
		}
		Expect(resends).To(Equal([]int{0, 1, 0, 3, 2, 5, 4}), "the entry each resends")
	})
})
