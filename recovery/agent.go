package recovery

import (
	"context"
	"errors"
	"fmt"

	"github.com/faultbench/faultbench/recovery/loopguard"
)

// ToolFunc runs one tool call. A tool that fails returns its error as the
// result's Content with IsError set, never as a Go error: the model reads
// it and may change course, and the turn goes on.
type ToolFunc func(ctx context.Context, call ToolCall) ToolResult

// ErrAborted is the sentinel every *AbortError matches with errors.Is.
var ErrAborted = errors.New("recovery: agent turn aborted")

// AbortError says that an agent turn was stopped although every request
// succeeded: the loop guard broke it (Detector names the pattern) or it
// reached the step cap (Detector is "step_cap").
type AbortError struct {
	Detector string // repeat, ping_pong, no_progress or step_cap
	Count    int    // the figure that crossed the threshold; the cap for step_cap
	Steps    int    // model steps taken
}

// DetectorStepCap is the Detector of an AbortError from the step cap.
const DetectorStepCap = "step_cap"

func (e *AbortError) Error() string {
	if e.Detector == DetectorStepCap {
		return fmt.Sprintf("recovery: agent turn aborted at the step cap of %d", e.Count)
	}
	return fmt.Sprintf("recovery: agent turn aborted by the loop guard (%s: %d) after %d steps", e.Detector, e.Count, e.Steps)
}

// Is matches ErrAborted.
func (e *AbortError) Is(target error) bool { return target == ErrAborted }

// AgentResult is what an agent turn produced and what it took. RunAgent
// returns it even with an error.
type AgentResult struct {
	Response *Response // the last answer; nil when the last step failed
	Messages []Message // the conversation at the end, the answers included
	Steps    int       // model steps (answers asked for)
	Warnings int       // loop-guard warnings injected
	Detector string    // the detector that broke the turn, or step_cap; "" otherwise
	// Last is the last step's Do result; Attempts and the other counters
	// are summed over every step.
	Last        *Result
	Attempts    int
	RepairCalls int
}

// RunAgent runs an agent turn: it sends req with full recovery (Do), and
// while the answer stops for tool_use it appends the answer, runs each
// call through tools, appends one user message with the results and sends
// again. With Strategy.LoopGuard every call goes through a loop guard: on a
// warning its message is added as text to that user message; on a break,
// or at the step cap, the turn stops with an *AbortError. A break stands
// only after a warning has reached the model in an earlier step, so the
// model is told before it is stopped, unless the detector breaks at once
// (its break threshold is its warn threshold: loopguard.Config.AtOnce),
// which stops the turn in the step it fires. An error from a
// step (a *GiveUpError) ends the turn as it is.
func (e *Engine) RunAgent(ctx context.Context, req Request, tools ToolFunc) (*AgentResult, error) {
	out := &AgentResult{}
	var guard *loopguard.Guard
	if e.effective.LoopGuard.Enabled {
		guard = loopguard.New(e.effective.LoopGuard.Config)
	}
	limit := e.effective.StepCap
	msgs := append([]Message(nil), req.Messages...)
	for {
		out.Steps++
		step := req
		step.Messages = msgs
		e.observe(Event{Type: EventStep, Time: e.clock.Now(), Step: out.Steps, Request: &step})
		res, err := e.Do(ctx, step)
		if res != nil {
			out.Last = res
			out.Attempts += res.Attempts
			out.RepairCalls += res.RepairCalls
			out.Response = res.Response
			// The engine may have compacted the history: go on from its.
			msgs = res.Request.Messages
		}
		out.Messages = msgs
		if err != nil {
			return out, err
		}
		resp := res.Response
		if resp == nil || !asksForTools(resp) {
			out.Messages = append(msgs[:len(msgs):len(msgs)], Message{Role: "assistant", Text: responseText(resp)})
			return out, nil
		}
		msgs = append(msgs[:len(msgs):len(msgs)], Message{Role: "assistant", Text: resp.Text, ToolCalls: resp.ToolCalls})
		user := Message{Role: "user"}
		var abort *AbortError
		// A break stands only once the model has seen a warning, in an
		// earlier step: with several calls in one answer the guard can warn
		// and break within the same step, before the warning is sent.
		warned := out.Warnings > 0
		for _, call := range resp.ToolCalls {
			r := tools(ctx, call)
			r.ToolUseID = call.ID
			user.ToolResults = append(user.ToolResults, r)
			if guard == nil || abort != nil {
				continue
			}
			fp, ferr := loopguard.Of(call.Name, call.Input)
			if ferr != nil { // arguments that are not JSON: the name alone
				fp = loopguard.Fingerprint(call.Name + ":invalid")
			}
			v := guard.Observe(fp, loopguard.ResultHash(r.Content, r.IsError))
			switch v.Level {
			case loopguard.Warn:
				out.Warnings++
				if user.Text != "" {
					user.Text += "\n"
				}
				user.Text += v.Message
				e.observe(Event{Type: EventLoopWarn, Time: e.clock.Now(), Step: out.Steps, Detector: string(v.Detector), Count: v.Count, Reason: v.Message})
			case loopguard.Break:
				if warned || v.AtOnce {
					abort = &AbortError{Detector: string(v.Detector), Count: v.Count, Steps: out.Steps}
				}
			}
		}
		msgs = append(msgs, user)
		out.Messages = msgs
		if abort != nil {
			out.Detector = abort.Detector
			e.observe(Event{Type: EventLoopBreak, Time: e.clock.Now(), Step: out.Steps, Detector: abort.Detector, Count: abort.Count, Err: abort})
			return out, abort
		}
		if out.Steps >= limit {
			abort = &AbortError{Detector: DetectorStepCap, Count: limit, Steps: out.Steps}
			out.Detector = abort.Detector
			e.observe(Event{Type: EventStepCap, Time: e.clock.Now(), Step: out.Steps, Detector: abort.Detector, Count: limit, Err: abort})
			return out, abort
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
	}
}

// asksForTools reports whether an answer stops for its tool calls:
// stop_reason tool_use (Anthropic) or finish_reason tool_calls (OpenAI).
func asksForTools(r *Response) bool {
	return len(r.ToolCalls) > 0 && (r.StopReason == "tool_use" || r.StopReason == "tool_calls")
}

func responseText(r *Response) string {
	if r == nil {
		return ""
	}
	return r.Text
}

// AsAbort returns err's *AbortError, if it has one.
func AsAbort(err error) (*AbortError, bool) {
	var a *AbortError
	ok := errors.As(err, &a)
	return a, ok
}
