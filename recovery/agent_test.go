package recovery_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/loopguard"
)

// toolUse is an answer that asks for the given calls, each "name" with
// input "{}" unless given as "name input".
func toolUse(calls ...string) answer {
	r := &recovery.Response{StopReason: "tool_use"}
	for i, c := range calls {
		name, input, _ := strings.Cut(c, " ")
		if input == "" {
			input = "{}"
		}
		r.ToolCalls = append(r.ToolCalls, recovery.ToolCall{ID: "t" + string(rune('a'+i)), Name: name, Input: json.RawMessage(input)})
		r.OutputTokens += len(input)
	}
	return answer{resp: r}
}

// echoTool answers every call with a result that names its input.
func echoTool(_ context.Context, c recovery.ToolCall) recovery.ToolResult {
	return recovery.ToolResult{Content: c.Name + " got " + string(c.Input)}
}

func agentEngine(f *fake, s recovery.Strategy, events *[]recovery.Event) *recovery.Engine {
	return recovery.New(f, s,
		recovery.WithClock(clock.NewVirtual()),
		recovery.WithObserver(func(e recovery.Event) { *events = append(*events, e) }))
}

func eventTypes(events []recovery.Event, keep ...recovery.EventType) []recovery.EventType {
	var out []recovery.EventType
	for _, e := range events {
		for _, k := range keep {
			if e.Type == k {
				out = append(out, e.Type)
			}
		}
	}
	return out
}

var _ = Describe("An agent turn (RunAgent)", func() {
	var (
		events []recovery.Event
		req    recovery.Request
	)
	BeforeEach(func() {
		events = nil
		req = turnOf("m", 1000, 1, 100)
	})

	It("ends at the first answer that does not ask for a tool, in one step", func() {
		f := &fake{script: func(int, recovery.Request) answer { return ok("done") }}
		res, err := agentEngine(f, recovery.Classifying(), &events).RunAgent(context.Background(), req, echoTool)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Steps).To(Equal(1))
		Expect(res.Response.Text).To(Equal("done"))
		Expect(eventTypes(events, recovery.EventStep)).To(HaveLen(1))
	})

	It("runs each call, appends the calls and their results, and sends the history again", func() {
		f := &fake{script: func(n int, _ recovery.Request) answer {
			if n <= 2 {
				return toolUse(`read {"path":"a`+string(rune('0'+n))+`"}`, `read {"path":"b`+string(rune('0'+n))+`"}`)
			}
			return ok("done")
		}}
		res, err := agentEngine(f, recovery.Classifying(), &events).RunAgent(context.Background(), req, echoTool)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Steps).To(Equal(3))
		Expect(f.sent).To(HaveLen(3))
		second := f.sent[1].Messages
		Expect(second).To(HaveLen(3))
		Expect(second[1].Role).To(Equal("assistant"))
		Expect(second[1].ToolCalls).To(HaveLen(2))
		Expect(second[2].Role).To(Equal("user"))
		Expect(second[2].ToolResults).To(HaveLen(2))
		Expect(second[2].ToolResults[0].ToolUseID).To(Equal(second[1].ToolCalls[0].ID))
		Expect(second[2].ToolResults[0].Content).To(Equal(`read got {"path":"a1"}`))
		Expect(second[2].Text).To(BeEmpty(), "no warning yet")
		Expect(recovery.CountTokens(f.sent[2])).To(BeNumerically(">", recovery.CountTokens(f.sent[1])), "the history grows")
	})

	It("hands a failing tool's error back as an is_error result and goes on", func() {
		f := &fake{script: func(n int, _ recovery.Request) answer {
			if n == 1 {
				return toolUse("broken")
			}
			return ok("worked around it")
		}}
		failing := func(context.Context, recovery.ToolCall) recovery.ToolResult {
			return recovery.ToolResult{Content: "permission denied", IsError: true}
		}
		res, err := agentEngine(f, recovery.Classifying(), &events).RunAgent(context.Background(), req, failing)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Steps).To(Equal(2))
		Expect(f.sent[1].Messages[2].ToolResults[0]).To(Equal(recovery.ToolResult{ToolUseID: "ta", Content: "permission denied", IsError: true}))
	})

	DescribeTable("with the guard, a stuck model is warned, then stopped with the detector named",
		func(s recovery.Strategy, script func(n int) answer, tool recovery.ToolFunc, detector loopguard.Detector, warnAt, breakAt int) {
			f := &fake{script: func(n int, _ recovery.Request) answer { return script(n) }}
			res, err := agentEngine(f, s, &events).RunAgent(context.Background(), req, tool)
			Expect(err).To(MatchError(recovery.ErrAborted))
			a, ok := recovery.AsAbort(err)
			Expect(ok).To(BeTrue())
			Expect(a.Detector).To(Equal(string(detector)))
			Expect(res.Detector).To(Equal(string(detector)))
			Expect(res.Steps).To(Equal(breakAt))
			Expect(res.Warnings).To(BeNumerically(">=", 1))
			// The warning is in the request of the step after warnAt.
			warned := f.sent[warnAt].Messages
			Expect(warned[len(warned)-1].Text).To(ContainSubstring("stop repeating it"))
			for _, s := range f.sent[:warnAt] {
				Expect(s.Messages[len(s.Messages)-1].Text).NotTo(ContainSubstring("stop repeating it"))
			}
			types := eventTypes(events, recovery.EventLoopWarn, recovery.EventLoopBreak)
			Expect(types[0]).To(Equal(recovery.EventLoopWarn), "the warning comes before the break")
			Expect(types[len(types)-1]).To(Equal(recovery.EventLoopBreak))
		},
		Entry("repeat: same call, changing results", recovery.Classifying(), func(int) answer { return toolUse(`read {"path":"log"}`) },
			counting(), loopguard.Repeat, 3, 5),
		Entry("no progress, with no_progress_break above its warn: same call, same result", warnFirst(),
			func(int) answer { return toolUse(`test {"pkg":"p"}`) }, recovery.ToolFunc(echoTool), loopguard.NoProgress, 2, 3),
		Entry("key order does not hide a repeat", recovery.Classifying(), func(n int) answer {
			if n%2 == 0 {
				return toolUse(`read {"a":1,"b":2}`)
			}
			return toolUse(`read {"b":2, "a":1}`)
		}, counting(), loopguard.Repeat, 3, 5),
	)

	It("sends the warning before it breaks, even when one answer's calls cross both thresholds", func() {
		f := &fake{script: func(int, recovery.Request) answer { return toolUse("test", "test", "test") }}
		res, err := agentEngine(f, warnFirst(), &events).RunAgent(context.Background(), req, echoTool)
		Expect(err).To(MatchError(recovery.ErrAborted))
		Expect(res.Detector).To(Equal(string(loopguard.NoProgress)))
		Expect(res.Steps).To(Equal(2), "the break of step 1 waits for the warning to be sent")
		last := f.sent[1].Messages
		Expect(last[len(last)-1].Text).To(ContainSubstring("stop repeating it"))
	})

	It("breaks at once on no progress, with no warning, as the layered demo does (classify)", func() {
		f := &fake{script: func(int, recovery.Request) answer { return toolUse(`test {"pkg":"p"}`) }}
		res, err := agentEngine(f, recovery.Classifying(), &events).RunAgent(context.Background(), req, echoTool)
		Expect(err).To(MatchError(recovery.ErrAborted))
		Expect(res.Detector).To(Equal(string(loopguard.NoProgress)))
		Expect(res.Steps).To(Equal(2), "the second identical call with an identical result")
		Expect(res.Warnings).To(BeZero())
		Expect(eventTypes(events, recovery.EventLoopWarn, recovery.EventLoopBreak)).To(Equal([]recovery.EventType{recovery.EventLoopBreak}))
		for _, s := range f.sent {
			Expect(s.Messages[len(s.Messages)-1].Text).NotTo(ContainSubstring("stop repeating it"))
		}
	})

	It("stops in the same step when an at-once break comes within one answer's calls", func() {
		f := &fake{script: func(int, recovery.Request) answer { return toolUse("test", "test", "test") }}
		res, err := agentEngine(f, recovery.Classifying(), &events).RunAgent(context.Background(), req, echoTool)
		Expect(err).To(MatchError(recovery.ErrAborted))
		Expect(res.Detector).To(Equal(string(loopguard.NoProgress)))
		Expect(res.Steps).To(Equal(1))
		Expect(f.sent).To(HaveLen(1))
	})

	It("stops at the step cap, aborted, when there is no guard", func() {
		f := &fake{script: func(int, recovery.Request) answer { return toolUse("read") }}
		s := recovery.Blind()
		s.StepCap = 7
		res, err := agentEngine(f, s, &events).RunAgent(context.Background(), req, echoTool)
		Expect(err).To(MatchError(recovery.ErrAborted))
		Expect(res.Steps).To(Equal(7))
		Expect(res.Detector).To(Equal(recovery.DetectorStepCap))
		Expect(res.Warnings).To(BeZero())
		Expect(eventTypes(events, recovery.EventStepCap)).To(HaveLen(1))
	})

	It("uses DefaultStepCap when the strategy sets none", func() {
		f := &fake{script: func(int, recovery.Request) answer { return toolUse("read") }}
		res, err := agentEngine(f, recovery.Blind(), &events).RunAgent(context.Background(), req, echoTool)
		Expect(err).To(MatchError(recovery.ErrAborted))
		Expect(res.Steps).To(Equal(recovery.DefaultStepCap))
	})

	It("ends with the step's error when a step gives up", func() {
		f := &fake{script: func(n int, _ recovery.Request) answer {
			if n == 1 {
				return toolUse("read")
			}
			return status(400, "invalid_request_error", "bad")
		}}
		res, err := agentEngine(f, recovery.Classifying(), &events).RunAgent(context.Background(), req, echoTool)
		Expect(errors.Is(err, recovery.ErrGaveUp)).To(BeTrue())
		Expect(errors.Is(err, recovery.ErrAborted)).To(BeFalse())
		Expect(res.Steps).To(Equal(2))
	})

	It("counts tool calls' raw input and tool results' content", func() {
		r := recovery.Request{Messages: []recovery.Message{
			{Role: "assistant", ToolCalls: []recovery.ToolCall{{ID: "x", Name: "n", Input: json.RawMessage(`{"path":"a"}`)}}},
			{Role: "user", Text: "abcde", ToolResults: []recovery.ToolResult{{ToolUseID: "x", Content: "123456789"}}},
		}}
		// {"path":"a"} is 12 bytes: 3 tokens; the result 9 bytes: 3; the text 5 bytes: 2.
		Expect(recovery.CountTokens(r)).To(Equal(8))
	})
})

// warnFirst is classify with the no-progress detector warning at 2 and
// breaking at 3, the loop guard's default, instead of the layered demo's
// break at once.
func warnFirst() recovery.Strategy {
	s := recovery.Classifying()
	s.LoopGuard.NoProgressBreak = 3
	return s
}

// counting is a tool whose every result differs.
func counting() recovery.ToolFunc {
	n := 0
	return func(_ context.Context, c recovery.ToolCall) recovery.ToolResult {
		n++
		return recovery.ToolResult{Content: c.Name + " call " + string(rune('0'+n%10)) + strings.Repeat("!", n)}
	}
}
