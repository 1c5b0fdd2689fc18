package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/openai"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("Provider in Responses mode, against the mock over loopback", func() {
	var (
		srv      *mockllm.Server
		provider *openai.Provider
	)
	serve := func(script ...scenario.Rule) {
		sc := &scenario.Scenario{
			Name:   "r",
			Models: map[string]scenario.Model{"gpt-test": {ContextWindow: 100000, MaxOutput: 8000}},
			Turn:   scenario.Turn{Model: "gpt-test", MaxTokens: 1024, AnswerTokens: 40},
			Script: script,
		}
		srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		ep, err := mockllm.Start(srv, "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		transport := &http.Transport{Proxy: nil}
		DeferCleanup(func() { _ = ep.Close(); transport.CloseIdleConnections() })
		provider = openai.New(option.WithBaseURL(ep.BaseURL("r")+"v1/"), option.WithAPIKey("t"),
			option.WithHTTPClient(&http.Client{Transport: transport}), option.WithHeader(mockllm.SessionHeader, "s")).WithResponses()
	}

	It("sends the turn to v1/responses and reads the answer", func() {
		serve()
		resp, err := provider.Send(context.Background(), turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.ID).To(HavePrefix("resp_"))
		Expect(resp.StopReason).To(Equal("stop"))
		Expect(resp.OutputTokens).To(Equal(40))
		e := srv.Entries("r", "s")[0]
		Expect(e).To(And(HaveField("Wire", "openai-responses"), HaveField("MaxTokens", 1024), HaveField("InputTokens", recovery.CountTokens(turn()))))
	})

	It("reads a cut answer as length, and an error status as an APIError, with the SDK's retries off", func() {
		serve(scenario.Rule{Times: 1, Respond: scenario.Respond{Status: 529}})
		_, err := provider.Send(context.Background(), turn())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.StatusCode).To(Equal(503))
		Expect(apiErr.Type).To(Equal("server_error"))
		Expect(srv.Entries("r", "s")).To(HaveLen(1), "no retry of the SDK's own")

		short := turn()
		short.MaxTokens = 20
		resp, err := provider.Send(context.Background(), short)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StopReason).To(Equal("length"))
	})

	It("runs an agent turn: function calls out, their outputs back in", func() {
		serve(scenario.Rule{When: scenario.When{Attempt: 1}, Respond: scenario.Respond{ToolUse: []scenario.ToolUse{{Name: "read", Input: `{"p":1}`}}}})
		engine := recovery.New(provider, recovery.Classifying(), recovery.WithClock(clock.NewVirtual()))
		res, err := engine.RunAgent(context.Background(), turn(), func(_ context.Context, c recovery.ToolCall) recovery.ToolResult {
			var in map[string]int
			Expect(json.Unmarshal(c.Input, &in)).To(Succeed())
			return recovery.ToolResult{Content: "p is 1"}
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Steps).To(Equal(2))
		Expect(srv.Entries("r", "s")).To(HaveLen(2))
		Expect(srv.Entries("r", "s")[1].Status).To(Equal(200))
	})
})
