package mocktest_test

import (
	"testing"

	"github.com/openai/openai-go/v3"
	oaoption "github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/mockllm/mocktest"
)

// The Go column of docs/testing.md: the same 429-then-success as the
// TypeScript and Python helpers' suites, against openai-go with its own
// retries on (a test pins the text of the doc to this file).
func TestA429ThenSuccessTheOpenAISDKWaitsWhatRetryAfterAsks(t *testing.T) {
	mock := mocktest.Start(t, `
name: retry-once
description: a 429 asking for 300 ms, then answers
models: {m: {context_window: 200000, max_output: 8192}}
script: [{when: {attempt: 1}, respond: {status: 429, headers: {retry-after-ms: "300"}}}]
`)
	client := openai.NewClient(oaoption.WithBaseURL(mock.OpenAIBaseURL()), oaoption.WithAPIKey("test"))
	if _, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "m", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}}); err != nil {
		t.Fatal(err)
	}
	mock.AssertStatuses(429, 200)
	mock.AssertHonoredRetryAfter()
}
