package scenario_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("respond.body", func() {
	doc := func(respond string) string {
		return "name: e\ndescription: d\nmodels:\n  m: {context_window: 1000, max_output: 100}\nturn:\n  model: m\n  max_tokens: 10\n" +
			"  answer_tokens: 5\n  messages:\n    - {count: 1, tokens: 10}\nscript:\n  - respond: " + respond + "\n"
	}

	It("takes a JSON object with a status, whose error.message is the journal's", func() {
		sc, err := scenario.Parse("e.yaml", []byte(doc(`{status: 402, body: '{"error":{"message":"Insufficient Balance","code":"invalid_request_error"}}'}`)))
		Expect(err).NotTo(HaveOccurred())
		Expect(scenario.ErrorBodyMessage(sc.Script[0].Respond.Body)).To(Equal("Insufficient Balance"))
		Expect(scenario.ErrorBodyMessage(`{"error":{"message":3}}`)).To(BeEmpty())
	})

	DescribeTable("refuses a body without a status, beside type or message, not an object, or too long, naming the field",
		func(respond, want string) {
			_, err := scenario.Parse("e.yaml", []byte(doc(respond)))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("no status", `{ok: true, body: '{}'}`, "script[0].respond.body: only goes with a status"),
		Entry("beside a message", `{status: 402, message: m, body: '{}'}`, "script[0].respond.body: words the whole error"),
		Entry("not an object", `{status: 402, body: '[1]'}`, "script[0].respond.body: must be a JSON object"),
		Entry("broken JSON", `{status: 402, body: '{"error":'}`, "script[0].respond.body: must be a JSON object"),
		Entry("too long", `{status: 402, body: '{"m":"`+strings.Repeat("x", scenario.MaxErrorBody)+`"}'}`, "script[0].respond.body: must be at most 4096 bytes"),
	)
})
