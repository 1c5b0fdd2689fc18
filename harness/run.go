package harness

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/http"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// job is one scenario × strategy run. It points at its strategy: a
// Strategy is some 450 bytes, which 20,000 jobs would copy 9 MB of.
type job struct {
	sc       *scenario.Scenario
	strategy *recovery.Strategy
}

// env is what every run of one Run call shares: the mock, its loopback
// endpoint and an HTTP client.
type env struct {
	mock   *mockllm.Server
	ep     *mockllm.Endpoint
	client *http.Client
	seed   uint64
	// runTokens, runMessages and runRequests bound the work of each run
	// (bound.go).
	runTokens, runMessages, runRequests int
}

// turnSeed derives the random source of turn k (from 0) of a run of
// scenario sc from the seed: the scenario and the turn, never the
// strategy, so that every strategy meets the same draws (common random
// numbers, a fairer comparison), a preset saved to a file under another
// name gives the preset's figures, and a run draws the same numbers
// whatever ran before it.
func turnSeed(seed uint64, sc string, k int) *rand.PCG {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d", sc, k)
	return rand.NewPCG(seed, h.Sum64())
}

// turnSource is a run's random source as its engine draws from it: the
// source of the turn that runs (turnSeed), so that a turn of a workload
// draws the same numbers whatever the other turns drew.
type turnSource struct {
	s     *sched
	seed  uint64
	sc    string
	turns []*rand.PCG // made as each turn first draws
}

var _ rand.Source = (*turnSource)(nil)

// Uint64 draws from the source of the turn that runs.
func (t *turnSource) Uint64() uint64 {
	k := t.s.current()
	if t.turns[k] == nil {
		t.turns[k] = turnSeed(t.seed, t.sc, k)
	}
	return t.turns[k].Uint64()
}

// run executes one job in its own mock sessions on its own virtual clock:
// a lone turn, or a scenario's workload.
func (e *env) run(ctx context.Context, j job) (ledger.Result, error) {
	if !j.sc.Workload.IsZero() {
		return e.play(ctx, j, fleet(j.sc.Workload, j.strategy.Name))
	}
	return e.play(ctx, j, lone(j.strategy.Name))
}

// authRefresh is the credential refresh a scenario's caller has: none,
// unless the turn says auth_refresh. Renewing is all it does; whether the
// next request passes is the script's to say.
func authRefresh(sc *scenario.Scenario) func(context.Context) error {
	if !sc.Turn.AuthRefresh {
		return nil
	}
	return func(context.Context) error { return nil }
}

// served converts the mock's journal into the ledger's view of it.
func served(entries []mockllm.Entry) []ledger.Served {
	out := make([]ledger.Served, len(entries))
	for i, e := range entries {
		out[i] = ledger.Served{N: e.N, Purpose: e.Purpose, Model: e.Model, MaxTokens: e.MaxTokens, InputTokens: e.InputTokens, Status: e.Status}
	}
	return out
}
