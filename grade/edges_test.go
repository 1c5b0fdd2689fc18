package grade_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// runOf is a run of a scenario that names check, with these entries and
// exit code: every entry answered by the script's rule 1.
func runOf(check string, exit int, es ...mockllm.Entry) grade.Run {
	sc := &scenario.Scenario{Name: "edge", Grade: []string{check}, Turn: scenario.Turn{Model: "primary", SystemTokens: 100},
		Script: []scenario.Rule{{Respond: scenario.Respond{Status: 529}}}}
	for i := range es {
		es[i].N, es[i].Rule = i+1, 1
	}
	return grade.Run{Scenario: sc, Entries: es, Exit: exit}
}

// finding is the one finding of check on run.
func finding(check string, run grade.Run, b grade.Bounds) grade.Finding {
	fs := grade.Judge([]grade.Run{run}, b)
	ExpectWithOffset(1, fs).To(HaveLen(1))
	ExpectWithOffset(1, fs[0].Check).To(Equal(check))
	return fs[0]
}

func failures(model string, n int) []mockllm.Entry {
	es := make([]mockllm.Entry, n)
	for i := range es {
		es[i] = mockllm.Entry{Model: model, Status: 529, Kind: "overloaded", GapMS: 100}
	}
	return es
}

var _ = Describe("the checks at their edges", func() {
	It("permanent: a retry of the 400 with a changed body fails as a resend does", func() {
		run := runOf("permanent", 1,
			mockllm.Entry{Model: "primary", Status: 400, Kind: "invalid_request", InputTokens: 20},
			mockllm.Entry{Model: "primary", Status: 400, Kind: "invalid_request", InputTokens: 25, GapMS: 100}) // Resend 0: another body
		f := finding("permanent", run, bounds)
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring("asked primary 1 more time after the 400 invalid_request"))
		Expect(f.Evidence).NotTo(ContainSubstring("the same body"))
	})

	It("bounded: exactly the bound of attempts passes, one over fails", func() {
		b := grade.Bounds{Attempts: 4, Time: bounds.Time}
		at := finding("bounded", runOf("bounded", 1, failures("primary", 4)...), b)
		Expect(at.Status).To(Equal(grade.Pass), at.Evidence)
		Expect(at.Evidence).To(ContainSubstring("gave up after 4 attempts"))
		over := finding("bounded", runOf("bounded", 1, failures("primary", 5)...), b)
		Expect(over.Status).To(Equal(grade.Fail), over.Evidence)
		Expect(over.Evidence).To(ContainSubstring("5 attempts, over the bound of 4"))
	})

	It("fallback: a fallback that also failed is no answer, whatever the exit code", func() {
		es := append(failures("primary", 3), failures("backup", 1)...)
		f := finding("fallback", runOf("fallback", 0, es...), bounds)
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring("switched to backup after 3 failures, but the last answer was 529 overloaded (exit 0)"))
	})
})

var _ = Describe("the client's ledger row, figure by figure", func() {
	It("counts no fallback for the first attempt and no wait after the answer", func() {
		// Two 529s from primary, the answer from backup, then a follow-up
		// request after the answer (a client may send one).
		run := runOf("fallback", 0,
			mockllm.Entry{Purpose: "turn", Model: "primary", Status: 529, Kind: "overloaded", InputTokens: 7, TimeMS: 0},
			mockllm.Entry{Purpose: "turn", Model: "primary", Status: 529, Kind: "overloaded", InputTokens: 7, TimeMS: 500, GapMS: 500},
			mockllm.Entry{Purpose: "turn", Model: "backup", Status: 200, Kind: "ok", InputTokens: 7, OutputTokens: 12, TimeMS: 1500, GapMS: 1000},
			mockllm.Entry{Purpose: "turn", Model: "backup", Status: 200, Kind: "ok", InputTokens: 7, OutputTokens: 3, TimeMS: 3500, GapMS: 2000})
		r := grade.Ledger(run)
		Expect(r.Scenario).To(Equal("edge"))
		Expect(r.Strategy).To(Equal(grade.Strategy))
		Expect(r.Outcome).To(Equal(ledger.OutcomeSuccess))
		Expect(r.Attempts).To(Equal(4))
		Expect(r.Fallbacks).To(Equal(1))
		Expect(r.WaitMS).To(Equal(int64(1500)))
		Expect(r.SubmittedInputTokens).To(Equal(4 * 100)) // the turn's declared input, per attempt
		Expect(r.OutputTokens).To(Equal(15))
		Expect(r.Steps).To(Equal(1))
		Expect(r.RepairCalls).To(BeZero())
		Expect(r.Reason).To(BeEmpty())
		Expect(r.AttemptsLog).To(HaveLen(4))
		Expect(r.AttemptsLog[0].WaitBeforeMS).To(BeZero())
		Expect(r.AttemptsLog[2].Model).To(Equal("backup"))
		Expect(r.AttemptsLog[3].WaitBeforeMS).To(Equal(int64(2000))) // the log keeps the gap; the wait does not count it
	})
})

var _ = Describe("one verdict per behaviour across wires", func() {
	It("overflow: giving up after the overflow is the same FAIL, in the same words, on every wire, in any wire's words", func() {
		gemini := "The input token count (190000) exceeds the maximum number of tokens allowed (131072)."
		for _, w := range []struct{ wire, message string }{
			{"anthropic", "input length and `max_tokens` exceed context limit: 190000 + 32000 > 200000"},
			{"openai", "This model's maximum context length is 200000 tokens. However, you requested 222000 tokens (190000 in the messages, 32000 in the completion)."},
			{"gemini", gemini},
			{"anthropic", gemini}, // a client on its own wire in the pack's Gemini scenario
			{"openai", gemini},
		} {
			sc := pack("t-overflow-"+w.wire, "overflow", w.wire, "  - {times: 1, respond: {status: 400, message: \""+w.message+"\"}}")
			f := grading("once", "overflow", bounds, sc)[0]
			Expect(f.Status).To(Equal(grade.Fail), w.wire+": "+f.Evidence)
			Expect(f.Evidence).To(Equal("gave up after the overflow (exit 1)"), w.wire+": "+w.message)
		}
	})
})

var _ = Describe("the recovers check's words", func() {
	It("names a stream cut as a cut, and exit 0 after a failure as success reported although it failed", func() {
		cut := mockllm.Entry{Model: "primary", Status: 200, Kind: "connection", Fault: "{cut_after: 3}"}
		f := finding("recovers", runOf("recovers", 0, cut), bounds)
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		Expect(f.Evidence).To(Equal("reported success although it failed: gave up after 1 attempt: the last answer was a stream cut after 3 events (exit 0)"))
		f = finding("recovers", runOf("recovers", 1, cut), bounds)
		Expect(f.Evidence).To(Equal("gave up after 1 attempt: the last answer was a stream cut after 3 events (exit 1)"))
	})
})

var _ = Describe("a PASS that is really no retry", func() {
	It("bounded: a client that never retried passes in words that say so", func() {
		f := finding("bounded", runOf("bounded", 1, failures("primary", 1)...), bounds)
		Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		Expect(f.Evidence).To(Equal("never retried: stopped after the first failure (exit 1)"))
	})
})
