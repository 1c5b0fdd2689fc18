package harness

import (
	"context"
	"errors"
	"fmt"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// Tools returns the tools of a scenario's agent turn as a deterministic
// ToolFunc for one run: each call gets its tool's error (is_error) or its
// result, numbered with vary_result; an unknown tool is an error result.
// It keeps per-tool counters, so give each run its own.
func Tools(sc *scenario.Scenario) recovery.ToolFunc {
	byName := make(map[string]scenario.Tool, len(sc.Tools))
	for _, t := range sc.Tools {
		byName[t.Name] = t
	}
	calls := map[string]int{}
	return func(_ context.Context, call recovery.ToolCall) recovery.ToolResult {
		t, ok := byName[call.Name]
		if !ok {
			return recovery.ToolResult{Content: fmt.Sprintf("unknown tool %q", call.Name), IsError: true}
		}
		calls[t.Name]++
		if t.Error != "" {
			return recovery.ToolResult{Content: t.Error, IsError: true}
		}
		content := t.Result
		if t.VaryResult {
			content += fmt.Sprintf(" (call %d)", calls[t.Name])
		}
		return recovery.ToolResult{Content: content}
	}
}

// JudgeAgent decides an agent turn's outcome: aborted when the loop guard
// or the step cap stopped it (the detector named), otherwise as Judge
// judges the last step.
func JudgeAgent(ar *recovery.AgentResult, err error) (ledger.Outcome, string) {
	if a, ok := recovery.AsAbort(err); ok {
		if a.Detector == recovery.DetectorStepCap {
			return ledger.OutcomeAborted, fmt.Sprintf("step cap of %d reached", a.Count)
		}
		return ledger.OutcomeAborted, fmt.Sprintf("loop guard: %s (%d) after %d steps", a.Detector, a.Count, a.Steps)
	}
	var last *recovery.Result
	if ar != nil {
		last = ar.Last
	}
	return Judge(last, err)
}

// Judge decides a turn's outcome from what the engine handed back, not from
// the HTTP status: an answer cut at max_tokens is truncated even though it
// came with a 200.
func Judge(res *recovery.Result, err error) (ledger.Outcome, string) {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return ledger.OutcomeCancelled, "context ended"
		}
		if g, ok := recovery.AsGiveUp(err); ok {
			if g.Kind == recovery.KindCancelled {
				return ledger.OutcomeCancelled, g.Reason
			}
			return ledger.OutcomeFailed, fmt.Sprintf("%s: %s", g.Kind, g.Reason)
		}
		return ledger.OutcomeFailed, err.Error()
	}
	if res == nil || res.Response == nil {
		return ledger.OutcomeFailed, "no answer"
	}
	switch r := res.Response; {
	case r.StopReason == "max_tokens":
		return ledger.OutcomeTruncated, fmt.Sprintf("answer cut at max_tokens %d", r.OutputTokens)
	case r.StopReason == "refusal":
		return ledger.OutcomeFailed, "refusal handed back as an answer"
	case r.Text == "":
		return ledger.OutcomeFailed, "empty answer handed back"
	}
	return ledger.OutcomeSuccess, ""
}
