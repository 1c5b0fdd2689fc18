package recovery_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
)

// A model stuck on one call: it asks to read the same file at every step.
func stuckModel() recovery.Provider {
	n := 0
	return recovery.ProviderFunc(func(_ context.Context, req recovery.Request) (*recovery.Response, error) {
		n++
		return &recovery.Response{Model: req.Model, StopReason: "tool_use", ToolCalls: []recovery.ToolCall{
			{ID: fmt.Sprintf("call_%d", n), Name: "read_file", Input: json.RawMessage(`{"path": "build.log"}`)},
		}}, nil
	})
}

// RunAgent runs the tools the model asks for and sends the results back.
// With classify's loop guard the stuck model is warned at the third call —
// the warning goes to the model in the next user message — and stopped at
// the fifth, with the detector named.
func ExampleEngine_RunAgent() {
	engine := recovery.New(stuckModel(), recovery.Classifying(),
		recovery.WithClock(clock.NewVirtual()),
		recovery.WithObserver(func(e recovery.Event) {
			switch e.Type {
			case recovery.EventLoopWarn:
				fmt.Println("step", e.Step, "warned:", e.Detector)
			case recovery.EventLoopBreak:
				fmt.Println("step", e.Step, "broken:", e.Detector)
			}
		}))
	calls := 0
	readFile := func(_ context.Context, c recovery.ToolCall) recovery.ToolResult {
		calls++ // the log grows, so every result differs: a repeat, not a stall
		return recovery.ToolResult{Content: fmt.Sprintf("build running, %d lines", calls*10)}
	}
	req := recovery.Request{Model: "claude-sonnet-4-5", MaxTokens: 1024,
		Messages: []recovery.Message{{Role: "user", Text: "Is the build done?"}}}
	res, err := engine.RunAgent(context.Background(), req, readFile)
	if a, ok := recovery.AsAbort(err); ok {
		fmt.Println("aborted:", a.Detector, "after", res.Steps, "steps")
	}
	// Output:
	// step 3 warned: repeat
	// step 5 broken: repeat
	// aborted: repeat after 5 steps
}
