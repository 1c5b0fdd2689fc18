package scenario_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("A rule's fault", func() {
	// respond parses a scenario whose one rule answers with the YAML given.
	respond := func(yaml string) (*scenario.Scenario, error) {
		return scenario.Parse("f.yaml", minimal("script:\n  - respond: "+yaml+"\n"))
	}

	DescribeTable("reads as a word or a mapping",
		func(yaml string, want scenario.Fault, text string) {
			s, err := respond(yaml)
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Script[0].Respond.Fault).To(Equal(want))
			Expect(s.Script[0].Respond.Fault.String()).To(Equal(text))
		},
		Entry("reset", "{fault: reset}", scenario.Fault{Kind: scenario.FaultReset}, "reset"),
		Entry("hang", "{fault: hang}", scenario.Fault{Kind: scenario.FaultHang}, "hang"),
		Entry("malformed", "{fault: malformed}", scenario.Fault{Kind: scenario.FaultMalformed}, "malformed"),
		Entry("empty", "{fault: empty}", scenario.Fault{Kind: scenario.FaultEmpty}, "empty"),
		Entry("garbage", "{fault: garbage}", scenario.Fault{Kind: scenario.FaultGarbage}, "garbage"),
		Entry("cut_after", "{fault: {cut_after: 5}}", scenario.Fault{Kind: scenario.FaultCut, After: 5}, "{cut_after: 5}"),
		Entry("cut_after 0", "{fault: {cut_after: 0}}", scenario.Fault{Kind: scenario.FaultCut}, "{cut_after: 0}"),
		Entry("error_after", "{fault: {error_after: 3}, type: api_error}", scenario.Fault{Kind: scenario.FaultError, After: 3}, "{error_after: 3}"),
		Entry("a dribble", "{fault: {dribble: 500ms}}", scenario.Fault{Dribble: scenario.Duration(500 * time.Millisecond)}, "{dribble: 500ms}"),
		Entry("a delay", "{fault: {delay: 20s}}", scenario.Fault{Delay: scenario.Duration(20 * time.Second)}, "{delay: 20s}"),
		Entry("a slow cut", "{fault: {dribble: 1s, cut_after: 8}}",
			scenario.Fault{Kind: scenario.FaultCut, After: 8, Dribble: scenario.Duration(time.Second)}, "{cut_after: 8, dribble: 1s}"),
	)

	DescribeTable("is refused, with the field named, when it makes no sense",
		func(yaml, field, msg string) {
			_, err := respond(yaml)
			Expect(err).To(HaveOccurred())
			errs := scenario.Errors(err)
			Expect(errs).To(ContainElement(And(
				HaveField("Field", field), HaveField("Msg", ContainSubstring(msg)), HaveField("Line", 6))), "%v", err)
		},
		Entry("an unknown word", "{fault: timeout}", "script[0].respond.fault", `"timeout" is not a fault`),
		Entry("an unknown key", "{fault: {cut_afer: 3}}", "script[0].respond.fault.cut_afer", `did you mean "cut_after"?`),
		Entry("both cut and error", "{fault: {cut_after: 1, error_after: 2}}", "script[0].respond.fault", "cut_after or error_after, not both"),
		Entry("an empty mapping", "{fault: {}}", "script[0].respond.fault", "an empty fault"),
		Entry("a list", "{fault: [reset]}", "script[0].respond.fault", "want a fault such as reset"),
		Entry("a negative count", "{fault: {cut_after: -1}}", "script[0].respond.fault.cut_after", "must be >= 0"),
		Entry("a negative dribble", "{fault: {dribble: -1s}}", "script[0].respond.fault.dribble", "must not be negative"),
		Entry("a fault and ok", "{ok: true, fault: reset}", "script[0].respond", "takes one of ok: true, a status, a fault or tool_use, not ok and fault reset"),
		Entry("a fault and a status", "{status: 529, fault: hang}", "script[0].respond", "not status 529 and fault hang"),
		Entry("nothing at all", "{headers: {a: b}}", "script[0].respond", "required: ok: true, a status such as 529, a fault such as reset, or tool_use"),
		Entry("a type with a fault that sends no error", "{fault: reset, type: api_error}", "script[0].respond.type", "only goes with a status, or a fault with error_after"),
	)

	It("asks a scenario built in code the same", func() {
		s, err := respond("{fault: reset}")
		Expect(err).NotTo(HaveOccurred())
		s.Script[0].Respond.Fault = scenario.Fault{Kind: scenario.FaultReset, Dribble: scenario.Duration(time.Second)}
		Expect(s.Validate()).To(MatchError(ContainSubstring("reset sends no body to dribble")))
		s.Script[0].Respond.Fault = scenario.Fault{Kind: scenario.FaultMalformed, After: 2}
		Expect(s.Validate()).To(MatchError(ContainSubstring("only goes with a cut or an error")))
	})

	It("reads turn.stream", func() {
		s, err := scenario.Parse("f.yaml", []byte(`name: s
description: A streamed turn.
models: {m: {context_window: 1000, max_output: 100}}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10, stream: true}
`))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Turn.Stream).To(BeTrue())
	})
})
