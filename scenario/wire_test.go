package scenario_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("turn.wire", func() {
	doc := func(turn string) string {
		return "name: w\ndescription: d\nmodels:\n  m: {context_window: 1000, max_output: 100}\nturn:\n  model: m\n  max_tokens: 10\n" +
			"  answer_tokens: 5\n  messages:\n    - {count: 1, tokens: 10}\n" + turn
	}

	It("takes anthropic, openai and openai-responses", func() {
		for _, w := range []string{"", "  wire: anthropic\n", "  wire: openai\n", "  wire: openai-responses\n"} {
			sc, err := scenario.Parse("w.yaml", []byte(doc(w)))
			Expect(err).NotTo(HaveOccurred(), w)
			Expect(sc.Turn.Wire).To(Equal(map[string]string{"": "", "  wire: anthropic\n": "anthropic",
				"  wire: openai\n": "openai", "  wire: openai-responses\n": "openai-responses"}[w]))
		}
	})

	It("refuses another wire, and a stream on the Responses API, naming the field", func() {
		_, err := scenario.Parse("w.yaml", []byte(doc("  wire: grpc\n")))
		Expect(err).To(MatchError(ContainSubstring(`turn.wire: "grpc" is not a wire; use anthropic, openai, openai-responses, gemini, azure, bedrock, vertex or openrouter`)))
		_, err = scenario.Parse("w.yaml", []byte(doc("  wire: openai-responses\n  stream: true\n")))
		Expect(err).To(MatchError(ContainSubstring("turn.stream: the harness streams only on the anthropic, openai, gemini, azure, bedrock, vertex and openrouter wires, not on openai-responses")))
		sc, err := scenario.Parse("w.yaml", []byte(doc("  wire: openai\n  stream: true\n")))
		Expect(err).NotTo(HaveOccurred())
		Expect(sc.Turn.Stream).To(BeTrue())
	})

	It("takes gemini, streamed too, and a Gemini rule's quota and retry delay", func() {
		sc, err := scenario.Parse("w.yaml", []byte(doc("  wire: gemini\n  stream: true\nscript:\n  - respond: {status: 429, quota: per_day, retry_delay: 90s}\n")))
		Expect(err).NotTo(HaveOccurred())
		Expect(sc.Turn.Wire).To(Equal(scenario.WireGemini))
		Expect(sc.Script[0].Respond.Quota).To(Equal(scenario.QuotaPerDay))
		Expect(sc.Script[0].Respond.RetryDelay.D()).To(Equal(90 * time.Second))
	})

	DescribeTable("refuses a bad quota or retry delay, naming the field",
		func(rule, want string) {
			_, err := scenario.Parse("w.yaml", []byte(doc("  wire: gemini\nscript:\n  - respond: "+rule+"\n")))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("an unknown quota", "{status: 429, quota: per_hour}", `respond.quota: "per_hour" is not a quota; use per_minute or per_day`),
		Entry("a negative delay", "{status: 429, retry_delay: -1s}", "respond.retry_delay: duration must not be negative"),
		Entry("a delay over a day", "{status: 429, retry_delay: 25h}", "respond.retry_delay: must be at most 24h"),
		Entry("details without a status", "{ok: true, quota: per_day}", "quota and retry_delay only go with a status"),
	)
})
