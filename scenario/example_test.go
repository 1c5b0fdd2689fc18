package scenario_test

import (
	"fmt"

	"github.com/faultbench/faultbench/scenario"
)

func ExampleParse() {
	_, err := scenario.Parse("broken.yaml", []byte(`name: broken
description: Two mistakes, reported together.
models:
  primary: {context_window: 200000, max_output: 32000}
turn:
  model: primary
  max_tokens: 4096
  messages: [{count: 2, tokens: 100}]
  answer_tokens: 100
script:
  - when: {model: backup}
    respond: {status: 529, retry_after: 2}
`))
	for _, e := range scenario.Errors(err) {
		fmt.Println(e)
	}
	// Output:
	// broken.yaml:11:12: script[0].when.model: model "backup" is not declared in models (declared: "primary")
	// broken.yaml:12:28: script[0].respond.retry_after: unknown field "retry_after" (known fields: body, cache, cycle, early_retry, fault, headers, message, ok, quota, retry_delay, status, tool_use, type, vary)
}

func ExampleParseBudget() {
	b, _ := scenario.ParseBudget("< 3s")
	fmt.Println(b.Op, b.Value, b.Holds(2500), b.Holds(3000))
	// Output: < 3000 true false
}
