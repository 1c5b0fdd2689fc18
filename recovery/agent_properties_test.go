package recovery_test

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/loopguard"
)

// agentRun runs an agent turn over a generated tool script: at each step
// the model ends its turn, or asks for one or two calls drawn from a small
// alphabet (so that repeats, ping-pongs and stalls all happen), and each
// tool answers from a small set of results.
func agentRun(t *rapid.T) (recovery.Strategy, *recovery.AgentResult, error, []recovery.Event) {
	s := recovery.Classifying()
	s.LoopGuard.Enabled = rapid.Bool().Draw(t, "guard")
	s.StepCap = rapid.IntRange(0, 40).Draw(t, "step_cap")
	s.LoopGuard.Window = rapid.IntRange(0, 25).Draw(t, "window")
	s.LoopGuard.RepeatWarn = rapid.IntRange(0, 6).Draw(t, "repeat_warn")
	s.LoopGuard.RepeatBreak = rapid.IntRange(0, 8).Draw(t, "repeat_break")
	s.LoopGuard.NoProgressBreak = rapid.IntRange(0, 4).Draw(t, "no_progress_break")
	endAt := rapid.IntRange(1, 60).Draw(t, "end_at")
	script := rapid.SliceOfN(rapid.IntRange(0, 5), 60, 60).Draw(t, "calls")
	results := rapid.SliceOfN(rapid.IntRange(0, 2), 200, 200).Draw(t, "results")
	f := &fake{script: func(n int, _ recovery.Request) answer {
		if n >= endAt {
			return ok("done")
		}
		c := script[(n-1)%len(script)]
		calls := []string{fmt.Sprintf(`tool%d {"arg":%d}`, c%3, c%2)}
		if c == 5 {
			calls = append(calls, `tool9 {"x":"y"}`)
		}
		return toolUse(calls...)
	}}
	i := 0
	tool := func(context.Context, recovery.ToolCall) recovery.ToolResult {
		i++
		return recovery.ToolResult{Content: fmt.Sprintf("result %d", results[i%len(results)])}
	}
	var events []recovery.Event
	e := recovery.New(f, s, recovery.WithClock(clock.NewVirtual()),
		recovery.WithObserver(func(ev recovery.Event) { events = append(events, ev) }))
	res, err := e.RunAgent(context.Background(), turnOf("m", 1000, 1, 50), tool)
	return s, res, err, events
}

func TestPropertyAgentTurnEndsWithinTheStepCap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, res, err, _ := agentRun(t)
		limit := s.StepCap
		if limit == 0 {
			limit = recovery.DefaultStepCap
		}
		if res.Steps < 1 || res.Steps > limit {
			t.Fatalf("%d steps, cap %d", res.Steps, limit)
		}
		switch a, aborted := recovery.AsAbort(err); {
		case err == nil:
			if res.Response == nil || res.Response.StopReason == "tool_use" {
				t.Fatalf("no error but the turn did not end: %+v", res.Response)
			}
		case aborted:
			if a.Detector == recovery.DetectorStepCap && res.Steps != limit {
				t.Fatalf("step cap at %d steps, cap %d", res.Steps, limit)
			}
			if a.Detector != recovery.DetectorStepCap && !s.LoopGuard.Enabled {
				t.Fatalf("detector %s fired with no guard", a.Detector)
			}
		default:
			t.Fatalf("unexpected error %v", err)
		}
	})
}

func TestPropertyAgentWarnsBeforeItBreaks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s, res, _, events := agentRun(t)
		firstWarn, warnings := 0, 0
		for _, e := range events {
			switch e.Type {
			case recovery.EventLoopWarn:
				if firstWarn == 0 {
					firstWarn = e.Step
				}
				warnings++
			case recovery.EventLoopBreak:
				// The warning went out with an earlier step's request,
				// unless the detector breaks at once (break = warn).
				if s.LoopGuard.AtOnce(loopguard.Detector(e.Detector)) {
					continue
				}
				if firstWarn == 0 || firstWarn >= e.Step {
					t.Fatalf("%s broke the turn at step %d; first warning at step %d", e.Detector, e.Step, firstWarn)
				}
			}
		}
		if warnings != res.Warnings {
			t.Fatalf("%d warning events, %d counted", warnings, res.Warnings)
		}
	})
}

func TestPropertyHonestStepsNeverTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(0, 14).Draw(t, "k")
		names := rapid.SliceOfN(rapid.SampledFrom([]string{"read", "grep", "edit"}), k, k).Draw(t, "tools")
		f := &fake{script: func(n int, _ recovery.Request) answer {
			if n > k {
				return ok("done")
			}
			// Every step's call differs from every other: its step is in it.
			return toolUse(fmt.Sprintf(`%s {"step":%d,"path":"a.go"}`, names[n-1], n))
		}}
		e := recovery.New(f, recovery.Classifying(), recovery.WithClock(clock.NewVirtual()))
		same := func(context.Context, recovery.ToolCall) recovery.ToolResult {
			return recovery.ToolResult{Content: "the same text every time"}
		}
		res, err := e.RunAgent(context.Background(), turnOf("m", 1000, 1, 50), same)
		if err != nil || res.Warnings != 0 || res.Steps != k+1 {
			t.Fatalf("k=%d: err %v, %d warnings, %d steps", k, err, res.Warnings, res.Steps)
		}
	})
}
