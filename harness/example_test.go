package harness_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// Run plays every strategy on every scenario, on a virtual clock, and
// gives each run's ledger: here the default suite's flaky-5xx.
func ExampleRun() {
	scs, err := scenario.Load("../scenarios/flaky-5xx.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := harness.Run(context.Background(), scs, []recovery.Strategy{recovery.Blind(), recovery.Classifying()}, harness.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Results {
		fmt.Println(r.Strategy, r.Outcome, r.Attempts, "attempts, waited", time.Duration(r.WaitMS)*time.Millisecond)
	}
	vs, _ := harness.Check(scs, rep.Results)
	fmt.Println(len(vs), "broken budgets")
	// Output:
	// blind success 4 attempts, waited 7s
	// classify success 4 attempts, waited 7s
	// 0 broken budgets
}

// A Bench serves scenarios made as the caller goes: a fleet added with
// Add runs as Run runs it, its turns sharing the quota.
func ExampleBench() {
	b, err := harness.NewBench(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	sc, err := scenario.Parse("fleet.yaml", []byte(`
name: small-fleet
description: Four turns at once on a key of two requests a minute.
models:
  primary: {context_window: 10000, max_output: 1000, limits: {rpm: 2}}
turn:
  model: primary
  max_tokens: 100
  messages: [{count: 1, tokens: 100}]
  answer_tokens: 50
workload: {turns: 4, concurrency: 4}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := b.Add(sc); err != nil {
		fmt.Println(err)
		return
	}
	r, err := b.Run(context.Background(), sc, recovery.Classifying())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Outcome, r.Workload.Turns, "turns,", r.Workload.Attempts, "attempts, makespan", time.Duration(r.Workload.MakespanMS)*time.Millisecond)
	// Output:
	// success 4 turns, 7 attempts, makespan 1m0s
}

// Play sends a session's requests a caller's own way, through the
// scenario's transport and on its virtual clock: here one retry after a
// 529, waiting a second that takes no real time.
func ExampleBench_Play() {
	b, err := harness.NewBench(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	sc, err := scenario.Parse("once.yaml", []byte(`
name: once
description: One 529, then a healthy server.
models: {primary: {context_window: 10000, max_output: 1000}}
turn: {model: primary, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 50}
script:
  - {when: {attempt: 1}, respond: {status: 529}}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := b.Add(sc); err != nil {
		fmt.Println(err)
		return
	}
	play := func(ctx context.Context, p recovery.Provider, clk recovery.Clock) error {
		req := harness.Conversation(sc.Turn)
		for {
			_, err := p.Send(ctx, req)
			var apiErr *recovery.APIError
			if !errors.As(err, &apiErr) {
				return err
			}
			if err := clk.Sleep(ctx, time.Second); err != nil {
				return err
			}
		}
	}
	entries, err := b.Play(context.Background(), sc, "mine", play)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range entries {
		fmt.Println(e.N, e.TimeMS, "ms:", e.Status, e.Kind)
	}
	// Output:
	// 1 0 ms: 529 overloaded
	// 2 1000 ms: 200 ok
}
