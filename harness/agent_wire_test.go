package harness_test

import (
	"context"
	"net/http/httptest"

	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ooption "github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	anthropicprovider "github.com/faultbench/faultbench/recovery/anthropic"
	openaiprovider "github.com/faultbench/faultbench/recovery/openai"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("an agent turn on either wire", func() {
	DescribeTable("sends tool calls and results that the mock counts as the engine does, and sees the warning",
		func(wire string) {
			sc, err := scenario.LoadFile("../scenarios/loop-recovers-after-warning.yaml")
			Expect(err).NotTo(HaveOccurred())
			srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
			Expect(srv.Open(sc.Name, "s", clock.NewVirtual())).To(Succeed())
			ts := httptest.NewServer(srv)
			DeferCleanup(ts.Close)
			base := ts.URL + "/" + sc.Name + "/"

			var p recovery.Provider
			if wire == "anthropic" {
				p = anthropicprovider.New(aoption.WithBaseURL(base), aoption.WithAPIKey("k"), aoption.WithHeader(mockllm.SessionHeader, "s"))
			} else {
				p = openaiprovider.New(ooption.WithBaseURL(base+"v1/"), ooption.WithAPIKey("k"), ooption.WithHeader(mockllm.SessionHeader, "s"))
			}
			var counted []int
			engine := recovery.New(p, recovery.Classifying(), recovery.WithClock(clock.NewVirtual()),
				recovery.WithObserver(func(e recovery.Event) {
					if e.Type == recovery.EventAttempt {
						counted = append(counted, recovery.CountTokens(*e.Request))
					}
				}))
			req := recovery.Request{Model: "sonnet", MaxTokens: 4096, Messages: []recovery.Message{{Role: "user", Text: "find the timeout"}}}
			ar, err := engine.RunAgent(context.Background(), req, harness.Tools(sc))
			Expect(err).NotTo(HaveOccurred())
			Expect(ar.Steps).To(Equal(5))
			Expect(ar.Warnings).To(Equal(1))

			entries := srv.Entries(sc.Name, "s")
			Expect(entries).To(HaveLen(5))
			served := make([]int, len(entries))
			for i, e := range entries {
				served[i] = e.InputTokens
			}
			Expect(served).To(Equal(counted), "the mock and the engine count the same tokens")
		},
		Entry("Anthropic Messages", "anthropic"),
		Entry("OpenAI Chat Completions", "openai"),
	)
})
