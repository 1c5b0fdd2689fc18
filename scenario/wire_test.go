package scenario_test

import (
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

	It("refuses another wire, and a stream on an OpenAI wire, naming the field", func() {
		_, err := scenario.Parse("w.yaml", []byte(doc("  wire: grpc\n")))
		Expect(err).To(MatchError(ContainSubstring(`turn.wire: "grpc" is not a wire; use anthropic, openai, openai-responses or gemini`)))
		_, err = scenario.Parse("w.yaml", []byte(doc("  wire: openai\n  stream: true\n")))
		Expect(err).To(MatchError(ContainSubstring("turn.stream: the harness streams only on the anthropic and gemini wires")))
	})
})
