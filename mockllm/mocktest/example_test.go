package mocktest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/openai/openai-go/v3"
	oaoption "github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/mockllm/mocktest"
)

// TestOpenAIAgentIsNotToldToRetryAQuota: the OpenAI SDK against the same
// kind of script, on Chat Completions; a quota 429 must not be retried.
func TestOpenAIAgentIsNotToldToRetryAQuota(t *testing.T) {
	mock := mocktest.Start(t, `
name: out-of-credit
description: Every request is refused for an exhausted quota.
models:
  gpt-4.1: {context_window: 128000, max_output: 16000}
script:
  - respond: {status: 429, type: insufficient_quota, message: "You exceeded your current quota."}
`)
	client := openai.NewClient(oaoption.WithBaseURL(mock.OpenAIBaseURL()), oaoption.WithAPIKey("test"), oaoption.WithMaxRetries(0))
	_, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello")},
	})
	if err == nil {
		t.Fatal("no error for an exhausted quota")
	}
	mock.AssertRequests(1)
	if got := mock.Requests()[0].Kind; got != "quota_exhausted" {
		t.Errorf("kind %q, want quota_exhausted", got)
	}
}

// An example has no *testing.T of its own; exampleT stands in for the
// one your test gets.
func ExampleStart() {
	t, done := exampleT()
	defer done()

	mock := mocktest.Start(t, overloaded)
	stop, err := ask(context.Background(), mock.BaseURL())
	fmt.Println(stop, err)
	r := mock.Result()
	fmt.Println(r.Outcome, r.Attempts, mock.Summary()[0].Statuses)
	fmt.Println(len(mock.Violations()), "broken budgets")
	// Output:
	// end_turn <nil>
	// success 3 [529 529 200]
	// 0 broken budgets
}
