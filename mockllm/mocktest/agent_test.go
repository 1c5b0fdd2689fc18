package mocktest_test

import (
	"context"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/faultbench/faultbench/mockllm/mocktest"
)

// overloaded is a mock-only scenario (no turn: your agent sends the
// requests): two overloads, each asking for a 20 ms wait, then a healthy
// server; the expect block is your client's budget.
const overloaded = `
name: overloaded
description: Two 529s that ask for 20 ms, then a healthy server.
models:
  claude-sonnet-4-5: {context_window: 200000, max_output: 64000}
script:
  - times: 2
    respond: {status: 529, headers: {retry-after-ms: "20"}}
expect:
  client: {outcome: success, attempts: "<= 3"}
`

// ask is your agent's call: here the Anthropic SDK with its own retries
// (two, by default), which honour retry-after-ms.
func ask(ctx context.Context, baseURL string) (string, error) {
	client := anthropic.NewClient(option.WithBaseURL(baseURL), option.WithAPIKey("test"))
	msg, err := client.Messages.New(ctx, anthropic.MessageNewParams{
		Model:     "claude-sonnet-4-5",
		MaxTokens: 2048,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hello"))},
	})
	if err != nil {
		return "", err
	}
	return string(msg.StopReason), nil
}

// TestAgentGetsThroughTwoOverloads is a test of your own agent: start the
// mock for t, point the agent at BaseURL, then hold the journal to the
// scenario's budget.
func TestAgentGetsThroughTwoOverloads(t *testing.T) {
	mock := mocktest.Start(t, overloaded)
	if _, err := ask(t.Context(), mock.BaseURL()); err != nil {
		t.Fatal(err)
	}
	mock.AssertExpect()
	mock.AssertStatuses(529, 529, 200)
	mock.AssertHonoredRetryAfter()
}
