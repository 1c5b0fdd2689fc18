package harness

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/http"

	"github.com/faultbench/faultbench/internal/clock"
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
	// runTokens and runMessages bound the work of each run (bound.go).
	runTokens, runMessages int
}

// runSeed derives a run's random source from the seed and the run's name,
// so that a run draws the same numbers whatever ran before it.
func runSeed(seed uint64, sc, strategy string) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s", sc, strategy)
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// run executes one job in its own mock session on its own virtual clock.
func (e *env) run(ctx context.Context, j job) (ledger.Result, error) {
	if !j.sc.Workload.IsZero() {
		return e.runFleet(ctx, j)
	}
	name, session := j.sc.Name, j.strategy.Name
	clk := clock.NewVirtual()
	// The mock waits on the run's clock, and plays the client's deadline
	// on it (deadline.go).
	dl := newDeadline(clk, AttemptTimeout, e.client.Transport)
	if err := e.mock.Open(name, session, dl); err != nil {
		return ledger.Result{Scenario: name, Strategy: session}, fmt.Errorf("harness: open session: %w", err)
	}
	defer e.mock.CloseSession(name, session)

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	provider := &bounded{Provider: newProvider(j.sc, e.ep.BaseURL(name), session, &http.Client{Transport: dl}), tokens: e.runTokens, messages: e.runMessages, cancel: cancel}
	rec := ledger.NewRecorder(name, session, clk.Now(), recovery.CountTokens)
	engine := recovery.New(provider, *j.strategy,
		recovery.WithClock(clk),
		recovery.WithRand(runSeed(e.seed, name, session)),
		recovery.WithObserver(rec.Observe),
		recovery.WithLimits(Limits(j.sc)),
		recovery.WithFallbacks(j.sc.Turn.Fallback...),
		recovery.WithAuthRefresh(authRefresh(j.sc)),
	)
	req := Conversation(j.sc.Turn) // built now, dropped when the run ends
	req.Background = j.sc.Turn.Background
	var outcome ledger.Outcome
	var reason string
	steps := 1
	if len(j.sc.Tools) > 0 {
		ar, err := engine.RunAgent(runCtx, req, Tools(j.sc))
		outcome, reason = JudgeAgent(ar, err)
		steps = ar.Steps
	} else {
		res, err := engine.Do(runCtx, req)
		outcome, reason = Judge(res, err)
	}
	var bound *runBound
	if ctx.Err() == nil && errors.As(context.Cause(runCtx), &bound) {
		outcome, reason = ledger.OutcomeAborted, bound.Error()
	}
	result := rec.Finish(outcome, reason, steps)
	if cerr := ledger.Reconcile(result, served(e.mock.Entries(name, session))); cerr != nil {
		return result, fmt.Errorf("harness: %w", cerr)
	}
	return result, nil
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

// Tools returns the tools of a scenario's agent turn as a deterministic
// ToolFunc for one run: each call gets its tool's error (is_error) or its
// result, numbered with vary_result; an unknown tool is an error result.
// It keeps per-tool counters, so give each run its own.
func Tools(sc *scenario.Scenario) recovery.ToolFunc {
	byName := make(map[string]scenario.Tool, len(sc.Tools))
	for _, t := range sc.Tools {
		byName[t.Name] = t
	}
	calls := map[string]int{}
	return func(_ context.Context, call recovery.ToolCall) recovery.ToolResult {
		t, ok := byName[call.Name]
		if !ok {
			return recovery.ToolResult{Content: fmt.Sprintf("unknown tool %q", call.Name), IsError: true}
		}
		calls[t.Name]++
		if t.Error != "" {
			return recovery.ToolResult{Content: t.Error, IsError: true}
		}
		content := t.Result
		if t.VaryResult {
			content += fmt.Sprintf(" (call %d)", calls[t.Name])
		}
		return recovery.ToolResult{Content: content}
	}
}

// JudgeAgent decides an agent turn's outcome: aborted when the loop guard
// or the step cap stopped it (the detector named), otherwise as Judge
// judges the last step.
func JudgeAgent(ar *recovery.AgentResult, err error) (ledger.Outcome, string) {
	if a, ok := recovery.AsAbort(err); ok {
		if a.Detector == recovery.DetectorStepCap {
			return ledger.OutcomeAborted, fmt.Sprintf("step cap of %d reached", a.Count)
		}
		return ledger.OutcomeAborted, fmt.Sprintf("loop guard: %s (%d) after %d steps", a.Detector, a.Count, a.Steps)
	}
	var last *recovery.Result
	if ar != nil {
		last = ar.Last
	}
	return Judge(last, err)
}

// Judge decides a turn's outcome from what the engine handed back, not from
// the HTTP status: an answer cut at max_tokens is truncated even though it
// came with a 200.
func Judge(res *recovery.Result, err error) (ledger.Outcome, string) {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return ledger.OutcomeCancelled, "context ended"
		}
		if g, ok := recovery.AsGiveUp(err); ok {
			if g.Kind == recovery.KindCancelled {
				return ledger.OutcomeCancelled, g.Reason
			}
			return ledger.OutcomeFailed, fmt.Sprintf("%s: %s", g.Kind, g.Reason)
		}
		return ledger.OutcomeFailed, err.Error()
	}
	if res == nil || res.Response == nil {
		return ledger.OutcomeFailed, "no answer"
	}
	switch r := res.Response; {
	case r.StopReason == "max_tokens":
		return ledger.OutcomeTruncated, fmt.Sprintf("answer cut at max_tokens %d", r.OutputTokens)
	case r.StopReason == "refusal":
		return ledger.OutcomeFailed, "refusal handed back as an answer"
	case r.Text == "":
		return ledger.OutcomeFailed, "empty answer handed back"
	}
	return ledger.OutcomeSuccess, ""
}
