package explore

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/scenario"
)

// bruteForce plays every plan hindsight could make, to depth, over the
// same candidate actions, and returns the cheapest that succeeds (false
// when none does). It is the optimum hindsight's search must agree with:
// exhaustive, no queue, no order.
func bruteForce(t *testing.T, b *harness.Bench, sc *scenario.Scenario, depth int) (Plan, Cost, bool) {
	t.Helper()
	h := hindsight{b: b, sc: sc}
	var best Plan
	var bestCost Cost
	found := false
	var walk func(n node)
	walk = func(n node) {
		if len(n.plan) >= depth {
			return
		}
		for _, a := range h.actions(n) {
			child, err := h.play(context.Background(), append(slices.Clip(n.plan), a))
			if err != nil {
				t.Fatal(err)
			}
			if child.cost.Success {
				if !found || child.cost.Compare(bestCost) < 0 {
					best, bestCost, found = child.plan, child.cost, true
				}
				continue // a plan that succeeded sends nothing more
			}
			walk(child)
		}
	}
	walk(node{})
	return best, bestCost, found
}

// laterIsCheaper: the first request fails fast before 5 s and hangs
// after (until the harness's 10-minute attempt timeout); later ones get
// 500s until 11 minutes, then the answer. The success the search meets first (send, fail fast;
// wait until 11m; send) costs 2 requests and 660 s of waiting; the
// cheapest (wait 5s, send, hang; wait 55s, send) costs 2 requests and
// 60 s, and needs one more expansion of a plan that looked dearer.
func laterIsCheaper() *scenario.Scenario {
	sec := func(n int) scenario.Duration { return scenario.Duration(time.Duration(n) * time.Second) }
	return &scenario.Scenario{
		Name:        "later-is-cheaper",
		Description: "the cheapest plan needs a later expansion",
		Models:      map[string]scenario.Model{"primary": {ContextWindow: 200000, MaxOutput: 8000}},
		Turn: scenario.Turn{Model: "primary", MaxTokens: 1024, AnswerTokens: 100,
			Messages: []scenario.MessageGroup{{Count: 1, Tokens: 1000}}},
		Script: []scenario.Rule{
			{When: scenario.When{Attempt: 1, Before: sec(5)}, Respond: scenario.Respond{Status: 500}},
			{When: scenario.When{Attempt: 1}, Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultHang}}},
			{When: scenario.When{Before: sec(660)}, Respond: scenario.Respond{Status: 500}},
			{Respond: scenario.Respond{OK: true}},
		},
	}
}

// TestHindsightAgreesWithBruteForce: on small scenarios (a pinned one
// whose cheapest plan needs a later expansion, and generated plain
// turns), the uniform-cost search returns the cost of the cheapest plan
// an exhaustive search over every plan to the same depth finds — not
// merely something cheaper than the presets.
func TestHindsightAgreesWithBruteForce(t *testing.T) {
	computeOnly(t)
	const depth = 3
	b, err := harness.NewBench(RunSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	scs := []*scenario.Scenario{laterIsCheaper()}
	for i := 0; len(scs) < 7 && i < 200; i++ {
		sc := Generate(11, i, "brute")
		if len(sc.Tools) > 0 || len(sc.Script) > 3 || len(sc.Turn.Fallback) > 0 {
			continue // keep the exhaustive search small
		}
		sc.Name = sc.Name + "-" + string(rune('a'+len(scs)))
		scs = append(scs, sc)
	}
	for _, sc := range scs {
		if err := sc.Validate(); err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		if err := b.Add(sc); err != nil {
			t.Fatal(err)
		}
		h, err := Hindsight(context.Background(), b, sc, Bound{Depth: depth, Plays: 100000})
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		plan, cost, ok := bruteForce(t, b, sc, depth)
		b.Remove(sc.Name)
		if !ok {
			if h.Cost.Success {
				t.Errorf("%s: hindsight found %q where no plan succeeds", sc.Name, h.Plan)
			}
			continue
		}
		if h.Cost != cost {
			t.Errorf("%s: hindsight's plan %q costs %v; the cheapest, %q, costs %v", sc.Name, h.Plan, h.Cost, plan, cost)
		}
	}
}

// TestHindsightPinsTheLaterExpansion pins the plan itself on the
// scenario built for it.
func TestHindsightPinsTheLaterExpansion(t *testing.T) {
	b, err := harness.NewBench(RunSeed)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sc := laterIsCheaper()
	if err := b.Add(sc); err != nil {
		t.Fatal(err)
	}
	h, err := Hindsight(context.Background(), b, sc, DefaultBound)
	if err != nil {
		t.Fatal(err)
	}
	if want := "wait 5s, send to primary with max_tokens 1024; wait 55s, send to primary with max_tokens 1024"; h.Plan.String() != want || !h.Cost.Success || h.Cost.WaitMS != 60_000 {
		t.Fatalf("hindsight: %q, %v; want %q, 60 s waited", h.Plan, h.Cost, want)
	}
}
