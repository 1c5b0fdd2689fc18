package mockllm_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// A mock serving a mock-only scenario on loopback, in real time: the
// first request gets the scripted 529, the second a complete answer, and
// the journal says so.
func Example() {
	sc, err := scenario.Parse("overloaded.yaml", []byte(`
name: overloaded
description: One 529, then a healthy server.
models: {claude-sonnet-4-5: {context_window: 200000, max_output: 64000}}
script:
  - {when: {attempt: 1}, respond: {status: 529}}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := mockllm.New([]*scenario.Scenario{sc}, nil) // nil: the wall clock
	ep, err := mockllm.Start(srv, "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ep.Close()

	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	defer client.CloseIdleConnections()
	for range 2 {
		resp, err := client.Post(ep.BaseURL("overloaded")+"v1/messages", "application/json", strings.NewReader(
			`{"model":"claude-sonnet-4-5","max_tokens":2048,"messages":[{"role":"user","content":"hello"}]}`))
		if err != nil {
			fmt.Println(err)
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		fmt.Printf("%s (x-should-retry: %q)\n", resp.Status, resp.Header.Get("x-should-retry"))
	}
	for _, s := range mockllm.Summarize(srv.Journal()) {
		fmt.Println(s.Session, s.Wires, s.Statuses, s.OutputTokens, "output tokens")
	}
	// Output:
	// 529 Overloaded (x-should-retry: "true")
	// 200 OK (x-should-retry: "")
	// default [anthropic] [529 200] 1000 output tokens
}

// Every request the mock took, as the journal records it.
func ExampleServer_Entries() {
	sc := &scenario.Scenario{Name: "plain", Description: "A healthy server.",
		Models: map[string]scenario.Model{"m": {ContextWindow: 1000, MaxOutput: 100}}}
	srv := mockllm.New([]*scenario.Scenario{sc}, mockllm.RealClock{})
	ep, err := mockllm.Start(srv, "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ep.Close()
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	defer client.CloseIdleConnections()
	resp, err := client.Post(ep.SessionURL("plain", "me")+"v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"one two three"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	for _, e := range srv.Entries("plain", "me") {
		fmt.Println(e.N, e.Wire, e.Model, e.InputTokens, e.Status, e.Kind, e.StopReason, e.OutputTokens)
	}
	// Output:
	// 1 openai m 4 200 truncated length 100
}
