package scenario_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

// mockOnly is a scenario for the mock alone: models and a script, no turn.
const mockOnly = `name: mock-only
description: A 529 then a healthy server, for a client of your own.
models: {m: {context_window: 1000, max_output: 100}}
script:
  - {when: {attempt: 1}, respond: {status: 529}}
expect:
  client: {outcome: success, attempts: "<= 3"}
`

var _ = Describe("A mock-only scenario", func() {
	It("validates without a turn section, and says it is mock-only", func() {
		s, err := scenario.Parse("m.yaml", []byte(mockOnly))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.MockOnly()).To(BeTrue())
		Expect(s.Validate()).To(Succeed())
	})

	It("is not mock-only once it has a turn", func() {
		s, err := scenario.Parse("m.yaml", minimal(""))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.MockOnly()).To(BeFalse())
	})

	It("still checks a turn section that is there but incomplete", func() {
		_, err := scenario.Parse("m.yaml", []byte(mockOnly+"turn: {max_tokens: 10}\n"))
		Expect(err).To(MatchError(ContainSubstring("turn.model: required")))
	})

	It("refuses a workload: a fleet sends copies of the turn", func() {
		_, err := scenario.Parse("m.yaml", []byte(mockOnly+"workload: {turns: 3}\n"))
		Expect(err).To(MatchError(ContainSubstring("m.yaml:8:1: workload: a fleet sends copies of the turn: add a turn section")))
	})
})
