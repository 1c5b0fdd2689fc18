package grade_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the client's ledger", func() {
	// A client that sent "hi" (3 tokens) twice, on a scenario whose turn
	// declares 200 + 2×40 tokens.
	sc := &scenario.Scenario{Name: "s", Turn: scenario.Turn{Model: "primary", SystemTokens: 200,
		Messages: []scenario.MessageGroup{{Count: 2, Tokens: 40}}}}
	run := grade.Run{Scenario: sc, Entries: []mockllm.Entry{
		{N: 1, Purpose: "turn", Model: "primary", InputTokens: 3, Status: 400, Kind: "invalid_request", Rule: 1},
		{N: 2, Purpose: "turn", Model: "primary", InputTokens: 3, Status: 400, Kind: "invalid_request", Rule: 1, GapMS: 10},
	}, Exit: 1}

	It("bills each attempt the turn's declared input, as a strategy's, so that its own small prompt wins no tie", func() {
		r := grade.Ledger(run)
		Expect(r.Attempts).To(Equal(2))
		Expect(r.SubmittedInputTokens).To(Equal(2 * 280))
		Expect(r.AttemptsLog[0].InputTokens).To(Equal(3)) // the log keeps what it sent
	})

	It("leaves the card with what the client sent", func() {
		card := grade.NewCard([]string{"c"}, []grade.Run{run}, grade.Bounds{})
		Expect(card.Runs[0].InputTokens).To(Equal(6))
	})

	It("bills what the client sent in a scenario without a turn", func() {
		bare := run
		bare.Scenario = &scenario.Scenario{Name: "bare"}
		Expect(grade.Ledger(bare).SubmittedInputTokens).To(Equal(6))
	})
})
