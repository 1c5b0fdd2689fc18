package scenario_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("respond.early_retry", func() {
	doc := func(respond string) string {
		return "name: e\ndescription: d\nmodels:\n  m: {context_window: 1000, max_output: 100}\nturn:\n  model: m\n  max_tokens: 10\n" +
			"  answer_tokens: 5\n  messages:\n    - {count: 1, tokens: 10}\nscript:\n  - respond: " + respond + "\n"
	}

	It("takes refused and scripted on a status", func() {
		for _, v := range []string{scenario.EarlyRetryRefused, scenario.EarlyRetryScripted} {
			sc, err := scenario.Parse("e.yaml", []byte(doc("{status: 429, early_retry: "+v+"}")))
			Expect(err).NotTo(HaveOccurred())
			Expect(sc.Script[0].Respond.EarlyRetry).To(Equal(v))
		}
	})

	DescribeTable("refuses another value, or one without a status, naming the field",
		func(respond, want string) {
			_, err := scenario.Parse("e.yaml", []byte(doc(respond)))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("an unknown answer", "{status: 429, early_retry: allowed}", `script[0].respond.early_retry: "allowed" is not an answer to an early retry; use refused or scripted`),
		Entry("no status", "{ok: true, early_retry: scripted}", "script[0].respond.early_retry: only goes with a status"),
	)
})
