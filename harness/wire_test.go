package harness_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("turn.wire", func() {
	// input 8,000 + max_tokens 4,096 overflow a 10,000 window: the
	// Messages API and Chat Completions refuse it (400), the Responses API
	// takes it and cuts the answer short.
	overflowing := func(wire string) *scenario.Scenario {
		return &scenario.Scenario{
			Name:   "wire-" + wire,
			Models: map[string]scenario.Model{"m": {ContextWindow: 10000, MaxOutput: 8000}},
			Turn: scenario.Turn{Wire: wire, Model: "m", MaxTokens: 4096, SystemTokens: 1000,
				Messages: []scenario.MessageGroup{{Count: 3, Tokens: 7000}}, AnswerTokens: 500},
		}
	}

	It("sends the turn by the wire it names, each with its own rules", func() {
		scs := []*scenario.Scenario{overflowing(""), overflowing(scenario.WireOpenAI), overflowing(scenario.WireOpenAIResponses)}
		rep, err := harness.Run(context.Background(), scs, []recovery.Strategy{recovery.Classifying()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		for _, name := range []string{"wire-", "wire-openai"} {
			first := result(rep, name, "classify").AttemptsLog[0]
			Expect(first.Status).To(Equal(400), name)
			Expect(first.Kind).To(Equal("context_overflow"), name)
		}
		responses := result(rep, "wire-openai-responses", "classify")
		Expect(responses.Attempts).To(Equal(1))
		Expect(responses.AttemptsLog[0].Status).To(Equal(200))
	})

	It("sends an Azure turn by openai-go's azure package to the mock's Azure routes, streamed or not", func() {
		azure := func(stream bool) *scenario.Scenario {
			sc := &scenario.Scenario{
				Name:   fmt.Sprintf("azure-%v", stream),
				Models: map[string]scenario.Model{"gpt-4o": {ContextWindow: 100000, MaxOutput: 8000}},
				Turn: scenario.Turn{Wire: scenario.WireAzure, Model: "gpt-4o", MaxTokens: 1000, Stream: stream, SystemTokens: 100,
					Messages: []scenario.MessageGroup{{Count: 1, Tokens: 500}}, AnswerTokens: 200},
				Script: []scenario.Rule{{When: scenario.When{Before: scenario.Duration(3 * time.Second)}, Respond: scenario.Respond{Status: 429}}, {Respond: scenario.Respond{OK: true}}},
			}
			return sc
		}
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{azure(false), azure(true)}, []recovery.Strategy{recovery.Classifying()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		for _, name := range []string{"azure-false", "azure-true"} {
			r := result(rep, name, "classify")
			Expect(r.Outcome).To(BeEquivalentTo("success"), name)
			Expect(r.Attempts).To(Equal(2), name)
			Expect(r.AttemptsLog[0].Status).To(Equal(429), name)
			Expect(r.AttemptsLog[0].Kind).To(Equal("rate_limit"), name)
			Expect(r.WaitMS).To(BeEquivalentTo(3000), name)
		}
	})

	It("sends a Bedrock turn by anthropic-sdk-go's bedrock option to the mock's Bedrock routes, streamed or not", func() {
		bedrock := func(stream bool, failure string) *scenario.Scenario {
			first := scenario.Respond{Status: 429, Type: failure}
			if stream {
				first = scenario.Respond{Type: failure, Fault: scenario.Fault{Kind: scenario.FaultError, After: 2}}
			}
			return &scenario.Scenario{
				Name:   fmt.Sprintf("bedrock-%v-%s", stream, failure),
				Models: map[string]scenario.Model{"claude": {ContextWindow: 100000, MaxOutput: 8000}},
				Turn: scenario.Turn{Wire: scenario.WireBedrock, Model: "claude", MaxTokens: 1000, Stream: stream, SystemTokens: 100,
					Messages: []scenario.MessageGroup{{Count: 1, Tokens: 500}}, AnswerTokens: 200},
				Script: []scenario.Rule{{When: scenario.When{Attempt: 1}, Respond: first}, {Respond: scenario.Respond{OK: true}}},
			}
		}
		var scs []*scenario.Scenario
		for _, stream := range []bool{false, true} {
			scs = append(scs, bedrock(stream, "ThrottlingException"), bedrock(stream, "ModelNotReadyException"))
		}
		rep, err := harness.Run(context.Background(), scs, []recovery.Strategy{recovery.Classifying()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		for _, sc := range scs {
			r := result(rep, sc.Name, "classify")
			Expect(r.Outcome).To(BeEquivalentTo("success"), sc.Name)
			Expect(r.Attempts).To(Equal(2), sc.Name)
			want := "rate_limit"
			switch {
			case sc.Name == "bedrock-true-ModelNotReadyException":
				// The stream has no member for it: a modelStreamErrorException.
				want = "server"
			case strings.Contains(sc.Name, "NotReady"):
				want = "overloaded"
			}
			Expect(r.AttemptsLog[0].Kind).To(Equal(want), sc.Name)
		}
	})
	It("sends a Vertex turn by anthropic-sdk-go's vertex option to the mock's Vertex routes, streamed or not", func() {
		vertex := func(stream bool) *scenario.Scenario {
			return &scenario.Scenario{
				Name:   fmt.Sprintf("vertex-%v", stream),
				Models: map[string]scenario.Model{"claude-sonnet-4": {ContextWindow: 200000, MaxOutput: 8000}},
				Turn: scenario.Turn{Wire: scenario.WireVertex, Model: "claude-sonnet-4", MaxTokens: 1000, Stream: stream, SystemTokens: 100,
					Messages: []scenario.MessageGroup{{Count: 1, Tokens: 500}}, AnswerTokens: 200},
				Script: []scenario.Rule{{When: scenario.When{Before: scenario.Duration(3 * time.Second)}, Respond: scenario.Respond{Status: 429}}, {Respond: scenario.Respond{OK: true}}},
			}
		}
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{vertex(false), vertex(true)}, []recovery.Strategy{recovery.Classifying()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		for _, name := range []string{"vertex-false", "vertex-true"} {
			r := result(rep, name, "classify")
			Expect(r.Outcome).To(BeEquivalentTo("success"), name)
			Expect(r.AttemptsLog[0].Status).To(Equal(429), name)
			Expect(r.AttemptsLog[0].Kind).To(Equal("rate_limit"), name)
			// Vertex's 429 names no wait: the engine's own backoff (1 s,
			// then 2 s), where a retry-after would have had it wait 3 s once.
			Expect(r.Attempts).To(Equal(3), name)
			Expect(r.AttemptsLog[1].WaitBeforeMS).To(BeEquivalentTo(1000), name)
		}
	})
	It("sends an OpenRouter turn by openai-go to the mock's OpenRouter route: an error at HTTP 200 is retried, a 402 is not", func() {
		openrouter := func(name string, respond scenario.Respond) *scenario.Scenario {
			return &scenario.Scenario{
				Name:   name,
				Models: map[string]scenario.Model{"anthropic/claude-sonnet-4": {ContextWindow: 200000, MaxOutput: 8000}},
				Turn: scenario.Turn{Wire: scenario.WireOpenRouter, Model: "anthropic/claude-sonnet-4", MaxTokens: 1000, SystemTokens: 100,
					Messages: []scenario.MessageGroup{{Count: 1, Tokens: 500}}, AnswerTokens: 200},
				Script: []scenario.Rule{{When: scenario.When{Attempt: 1}, Respond: respond}, {Respond: scenario.Respond{OK: true}}},
			}
		}
		scs := []*scenario.Scenario{openrouter("or-in-body", scenario.Respond{Status: 502, Type: "in_body"}), openrouter("or-402", scenario.Respond{Status: 402})}
		rep, err := harness.Run(context.Background(), scs, []recovery.Strategy{recovery.Classifying()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		r := result(rep, "or-in-body", "classify")
		Expect(r.Outcome).To(BeEquivalentTo("success"))
		Expect(r.Attempts).To(Equal(2))
		Expect(r.AttemptsLog[0].Status).To(Equal(200))
		Expect(r.AttemptsLog[0].Kind).To(Equal("server"))
		r = result(rep, "or-402", "classify")
		Expect(r.Attempts).To(Equal(1))
		Expect(r.AttemptsLog[0].Kind).To(Equal("quota_exhausted"))
	})
})
