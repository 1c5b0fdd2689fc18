package harness_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// The scenario a newcomer writes first: two 429s that ask for 3 s, then
// success. The mock keeps its word, as a real limiter does: blind's retry
// after 1 s is refused, not answered by the next rule.
const twoRetryAfter429s = `name: two-429s-retry-after-3
description: Two 429s that ask for 3 s, then success.
models:
  primary: {context_window: 200000, max_output: 8192}
turn:
  model: primary
  max_tokens: 1024
  answer_tokens: 100
  messages:
    - {count: 1, tokens: 1000}
script:
  - times: 2
    respond: {status: 429, headers: {retry-after: "3"}}
`

var _ = Describe("a 429 that asks for a wait", func() {
	run := func(doc string) map[string]ledger.Result {
		sc, err := scenario.Parse("two.yaml", []byte(doc))
		Expect(err).NotTo(HaveOccurred())
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{sc},
			[]recovery.Strategy{recovery.Blind(), recovery.Classifying()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		out := map[string]ledger.Result{}
		for _, r := range rep.Results {
			out[r.Strategy] = r
		}
		return out
	}

	It("makes classify, which waits it out, win over blind, which retries early", func() {
		rs := run(twoRetryAfter429s)
		Expect(rs["classify"].Outcome).To(Equal(ledger.OutcomeSuccess))
		Expect(rs["classify"].Attempts).To(Equal(3))
		Expect(rs["classify"].WaitMS).To(Equal(int64(6000)))
		Expect(rs["blind"].Attempts).To(BeNumerically(">", rs["classify"].Attempts))
	})

	It("answers blind's early retry from the script with early_retry: scripted", func() {
		rs := run(twoRetryAfter429s[:len(twoRetryAfter429s)-2] + `, early_retry: scripted}` + "\n")
		Expect(rs["blind"].Outcome).To(Equal(ledger.OutcomeSuccess))
		Expect(rs["blind"].Attempts).To(Equal(3))
	})
})
