package scenario_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

// sized is a scenario whose sizes are given: a model's window and
// output, the turn's max_tokens, system tokens, one message group, the
// answer and the summary.
func sized(window, output, maxTokens, system, count, tokens, answer, summary string) []byte {
	return []byte(fmt.Sprintf(`name: sized
description: d
models: {m: {context_window: %s, max_output: %s}}
turn: {model: m, max_tokens: %s, system_tokens: %s, messages: [{count: %s, tokens: %s}], answer_tokens: %s}
compaction: {summary_tokens: %s}
`, window, output, maxTokens, system, count, tokens, answer, summary))
}

var _ = Describe("The ceilings on a scenario's sizes", func() {
	const maxInt = "9223372036854775807"
	DescribeTable("refuse what the harness cannot build, naming the field",
		func(data []byte, want ...string) {
			_, err := scenario.Parse("x.yaml", data)
			Expect(err).To(HaveOccurred())
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("a billion messages", sized("1000", "10", "10", "0", "1000000000", "1000000000", "10", "10"),
			"x.yaml:4:", "turn.messages[0].count: must be <= 100000"),
		Entry("four billion tokens", sized("1000", "10", "10", "0", "1", "4000000000", "10", "10"),
			"turn.messages[0].tokens: must be <= 5000000 (the ceiling on tokens), got 4000000000"),
		Entry("a trillion answer tokens", sized("1000", "10", "10", "0", "1", "10", "1000000000000", "10"),
			"turn.answer_tokens: must be <= 1000000 (the ceiling on an answer)"),
		Entry("answers above the answer ceiling, within the ceiling on tokens", sized("1000", "10", "10", "0", "1", "10", "5000000", "1000001"),
			"turn.answer_tokens: must be <= 1000000 (the ceiling on an answer), got 5000000",
			"compaction.summary_tokens: must be <= 1000000 (the ceiling on an answer), got 1000001"),
		Entry("every size at MaxInt64", sized(maxInt, maxInt, maxInt, maxInt, maxInt, maxInt, maxInt, maxInt),
			"context_window: must be <= 5000000", "turn.max_tokens: must be <=", "turn.system_tokens: must be <=",
			"count: must be <= 100000", "turn.answer_tokens: must be <=", "compaction.summary_tokens: must be <="),
		Entry("groups that add up past the ceiling", []byte(strings.Replace(string(sized("1000", "10", "10", "0", "1", "3000000", "10", "10")),
			"messages: [", "messages: [{count: 1, tokens: 3000000}, ", 1)),
			"turn.messages: the turn's input (system_tokens and every group) must be <= 5000000 tokens (the ceiling), got 6000000"),
	)

	It("accepts sizes at the ceilings", func() {
		_, err := scenario.Parse("x.yaml", sized("5000000", "5000000", "10", "0", "100000", "5000000", "1000000", "1000000"))
		Expect(err).NotTo(HaveOccurred())
	})
})
