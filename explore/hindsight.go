package explore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// HindsightName is the strategy name of hindsight's row in a report.
const HindsightName = "hindsight"

// Action is one step of a hindsight plan: wait, then (maybe) compact,
// then send the turn to a model with a max_tokens.
type Action struct {
	Wait      time.Duration
	Compact   bool // one repair call first: summarise all but the last keepRecent messages
	Model     string
	MaxTokens int
}

func (a Action) String() string {
	var parts []string
	if a.Wait > 0 {
		parts = append(parts, "wait "+a.Wait.String())
	}
	if a.Compact {
		parts = append(parts, "compact")
	}
	return strings.Join(append(parts, fmt.Sprintf("send to %s with max_tokens %d", a.Model, a.MaxTokens)), ", ")
}

// Plan is the actions hindsight takes, in order; an empty plan is giving
// up at once.
type Plan []Action

func (p Plan) String() string {
	if len(p) == 0 {
		return "give up at once"
	}
	s := make([]string, len(p))
	for i, a := range p {
		s[i] = a.String()
	}
	return strings.Join(s, "; ")
}

// Bound bounds hindsight's search.
type Bound struct {
	// Depth is the most turn attempts a plan makes; 0 means 8.
	Depth int
	// Plays is the most plans played on the mock; 0 means 300.
	Plays int
}

// DefaultBound is the bound `faultbench run --hindsight` uses.
var DefaultBound = Bound{Depth: 8, Plays: 300}

// ExploreBound is the tighter bound explore's regret objective uses, which
// computes hindsight for every script and every shrink candidate: a
// looser search finds a cheaper plan at most, so a regret found under it
// is a lower bound on the one DefaultBound would give.
var ExploreBound = Bound{Depth: 3, Plays: 60}

// Limits on the candidate actions.
const (
	// maxPlanWait is the longest wait a plan may take in one step: an
	// hour, the longest retry-after of the default suite.
	maxPlanWait = time.Hour
	// keepRecent is how many of the newest messages hindsight's
	// compaction keeps (the engine keeps 6 by default): an even number,
	// so that roles still alternate after the summary.
	keepRecent = 2
	// summaryMaxTokens is the max_tokens of hindsight's summary request,
	// clamped to the model's output limit, as the engine's default.
	summaryMaxTokens = 4096
)

// Answer is hindsight's answer for a scenario: the cheapest plan found
// that succeeds, or giving up at once when none does within the bound.
type Answer struct {
	Plan    Plan
	Cost    Cost
	Plays   int  // plans played on the mock
	Bounded bool // the Plays bound cut the search short: a cheaper plan may exist
	entries []mockllm.Entry
}

// node is a plan played, with what it cost so far and where it left the
// session.
type node struct {
	plan      Plan
	cost      Cost
	at        time.Duration // the session's clock after the plan's last answer
	compacted bool
	// dead is a plan that went no further: its repair call failed, so no
	// step after it can be played.
	dead    bool
	entries []mockllm.Entry
}

// Hindsight searches the plans of an agent that knows sc's script: a
// uniform-cost search in the cost order, over plans of at most
// bound.Depth attempts, each action drawn from a small set (actions);
// every plan is played from the start on a fresh session of the bench's
// mock, which serves sc. The first plan taken from the queue that
// succeeds is the cheapest (a step never makes a plan cheaper). Agent
// turns (tools) and workloads are not searched: the answer is an error.
func Hindsight(ctx context.Context, b *harness.Bench, sc *scenario.Scenario, bound Bound) (Answer, error) {
	if len(sc.Tools) > 0 {
		return Answer{}, errors.New("explore: hindsight plays plain turns, not agent turns")
	}
	if !sc.Workload.IsZero() {
		return Answer{}, errors.New("explore: hindsight plays one turn, not a workload's fleet")
	}
	if bound.Depth <= 0 {
		bound.Depth = 8
	}
	if bound.Plays <= 0 {
		bound.Plays = 300
	}
	h := hindsight{b: b, sc: sc}
	queue := []node{{}}
	var ans Answer
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.cost.Success {
			return Answer{Plan: n.plan, Cost: n.cost, Plays: h.plays, entries: n.entries}, nil
		}
		if len(n.plan) >= bound.Depth || n.dead {
			continue
		}
		for _, a := range h.actions(n) {
			if h.plays >= bound.Plays {
				ans.Bounded = true
				break
			}
			child, err := h.play(ctx, append(slices.Clip(n.plan), a))
			if err != nil {
				return ans, err
			}
			queue = append(queue, child)
		}
		// Keep the queue in the cost order (a success counts as the cost
		// it has so far, ties in the order found).
		slices.SortStableFunc(queue, func(x, y node) int { return partial(x.cost).Compare(partial(y.cost)) })
		if ans.Bounded {
			for _, q := range queue {
				if q.cost.Success {
					return Answer{Plan: q.plan, Cost: q.cost, Plays: h.plays, Bounded: true, entries: q.entries}, nil
				}
			}
			break
		}
	}
	ans.Plays = h.plays
	return ans, nil
}

// partial is a cost as the queue orders it: by what was spent, success
// or not, so that a plan still going is not put behind a finished one
// that spent more.
func partial(c Cost) Cost { c.Success = true; return c }

type hindsight struct {
	b     *harness.Bench
	sc    *scenario.Scenario
	plays int
}

// actions lists the candidate next steps after n, in a fixed order:
// waits (none; until a rule's when.after or when.before, or a reset
// header's time, comes; the wait n's last answer asked for, which the
// mock holds a client to), models (the turn's, then its fallbacks),
// max_tokens (the turn's; the answer's size when it is more, within the
// model's limit; what fits the window when the turn's does not) and
// compacting (once per plan).
func (h *hindsight) actions(n node) []Action {
	waits := []time.Duration{0}
	for _, at := range h.boundaries() {
		if d := at - n.at; d > 0 && d <= maxPlanWait && !slices.Contains(waits, d) {
			waits = append(waits, d)
		}
	}
	if len(n.entries) > 0 {
		if ms := n.entries[len(n.entries)-1].RetryAfterMS; ms != nil {
			if d := time.Duration(*ms) * time.Millisecond; d > 0 && d <= maxPlanWait && !slices.Contains(waits, d) {
				waits = append(waits, d)
			}
		}
	}
	models := append([]string{h.sc.Turn.Model}, h.sc.Turn.Fallback...)
	compacts := []bool{false}
	if !n.compacted && h.conversationLen() > keepRecent {
		compacts = append(compacts, true)
	}
	var out []Action
	for _, w := range waits {
		for _, c := range compacts {
			for _, m := range models {
				for _, mt := range h.maxTokens(m, c) {
					out = append(out, Action{Wait: w, Compact: c || n.compacted, Model: m, MaxTokens: mt})
				}
			}
		}
	}
	return out
}

// boundaries are the times since the session began at which the script's
// answers change: each rule's when.after and when.before, and each reset
// header's time.
func (h *hindsight) boundaries() []time.Duration {
	var out []time.Duration
	for _, r := range h.sc.Script {
		for _, d := range []scenario.Duration{r.When.After, r.When.Before} {
			if d > 0 {
				out = append(out, d.D())
			}
		}
		for k, v := range r.Respond.Headers {
			switch {
			case strings.HasPrefix(k, "anthropic-ratelimit-") && strings.HasSuffix(k, "-reset"):
				if t, err := time.Parse(time.RFC3339, v); err == nil {
					out = append(out, t.Sub(clock.Epoch))
				}
			case strings.HasPrefix(k, "x-ratelimit-reset-"):
				if d, err := time.ParseDuration(v); err == nil {
					out = append(out, d) // from the request's time; a first attempt's is near 0
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (h *hindsight) conversationLen() int {
	n := 0
	for _, g := range h.sc.Turn.Messages {
		n += g.Count
	}
	return n
}

// maxTokens lists the max_tokens worth trying on model m: the turn's;
// the answer's size when the turn's would truncate it; and what fits the
// window beside the input (compacted or not) when the turn's does not.
func (h *hindsight) maxTokens(m string, compacted bool) []int {
	lim := h.sc.Models[m]
	t := h.sc.Turn
	out := []int{min(t.MaxTokens, lim.MaxOutput)}
	if t.AnswerTokens > t.MaxTokens {
		out = append(out, min(t.AnswerTokens, lim.MaxOutput))
	}
	req := h.request(m, out[0])
	if compacted {
		req = h.compacted(req, h.summaryText())
	}
	if fit := lim.ContextWindow - recovery.CountTokens(req) - 1; fit >= 1 && fit < out[0] {
		out = append(out, fit)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (h *hindsight) request(model string, maxTokens int) recovery.Request {
	req := harness.Conversation(h.sc.Turn)
	req.Model, req.MaxTokens = model, maxTokens
	return req
}

// summaryText is the summary the mock answers a repair call with, so that
// the candidates can be sized before the call is made.
func (h *hindsight) summaryText() string {
	n := h.sc.Compaction.SummaryTokens
	if n <= 0 {
		n = scenario.DefaultSummaryTokens
	}
	return tokens.Text(n)
}

// compacted is req with all but the keepRecent newest messages replaced
// by a summary.
func (h *hindsight) compacted(req recovery.Request, summary string) recovery.Request {
	recent := req.Messages[max(len(req.Messages)-keepRecent, 0):]
	req.Messages = append([]recovery.Message{{Role: "user", Text: "Summary of the earlier conversation:\n" + summary}}, recent...)
	return req
}

// play sends plan from the start on a fresh session and returns where it
// left things and what it cost, counted from the mock's journal.
func (h *hindsight) play(ctx context.Context, plan Plan) (node, error) {
	h.plays++
	n := node{plan: plan}
	var waited time.Duration
	entries, err := h.b.Play(ctx, h.sc, HindsightName, func(ctx context.Context, p recovery.Provider, clk recovery.Clock) error {
		defer func() { n.at = clk.Now().Sub(clock.Epoch) }()
		summary := ""
		for i, a := range plan {
			if err := clk.Sleep(ctx, a.Wait); err != nil {
				return err
			}
			waited += a.Wait
			if a.Compact && summary == "" {
				s, ok := h.summarise(ctx, p, a.Model)
				if !ok {
					n.dead = true // the summary failed: this plan goes no further
					return nil
				}
				summary = s
			}
			req := h.request(a.Model, a.MaxTokens)
			if summary != "" {
				req = h.compacted(req, summary)
			}
			resp, err := p.Send(ctx, req)
			n.cost.Success = i == len(plan)-1 && err == nil && done(resp)
		}
		n.compacted = summary != ""
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("hindsight: %w", err)
	}
	n.entries = entries
	n.cost.WaitMS = waited.Milliseconds()
	for _, e := range entries {
		n.cost.Requests++
		n.cost.Tokens += e.InputTokens
	}
	return n, nil
}

// summarise makes the repair call: the messages compaction drops, and a
// request for their summary, trimmed from the oldest to fit the window.
func (h *hindsight) summarise(ctx context.Context, p recovery.Provider, model string) (string, bool) {
	lim := h.sc.Models[model]
	req := h.request(model, min(summaryMaxTokens, lim.MaxOutput))
	req.Purpose = recovery.PurposeRepair
	req.Messages = append(req.Messages[:max(len(req.Messages)-keepRecent, 0):max(len(req.Messages)-keepRecent, 0)],
		recovery.Message{Role: "user", Text: "Summarise the conversation above."})
	for len(req.Messages) > 1 && recovery.CountTokens(req)+req.MaxTokens > lim.ContextWindow {
		req.Messages = req.Messages[1:]
	}
	resp, err := p.Send(ctx, req)
	if err != nil || resp == nil || resp.Text == "" {
		return "", false
	}
	return resp.Text, true
}

// done reports whether an answer is the complete one the turn wants, as
// harness.Judge judges a success.
func done(r *recovery.Response) bool {
	return r != nil && r.StopReason != "max_tokens" && r.StopReason != "refusal" && r.Text != ""
}

// Result is the answer as a ledger row of scenario `name`, strategy
// HindsightName, its figures counted from the mock's journal.
func (a Answer) Result(name string) ledger.Result {
	r := ledger.Result{Scenario: name, Strategy: HindsightName, Outcome: ledger.OutcomeFailed, WaitMS: a.Cost.WaitMS,
		AttemptsLog: []ledger.Attempt{}, RepairLog: []ledger.Attempt{}, Steps: 1}
	if a.Cost.Success {
		r.Outcome = ledger.OutcomeSuccess
	} else {
		r.Reason = "hindsight: " + NoPlan
	}
	next, compacted := 0, false
	take := func(wait time.Duration) *ledger.Attempt {
		if next >= len(a.entries) {
			return nil
		}
		e := a.entries[next]
		next++
		return &ledger.Attempt{N: e.N, Purpose: e.Purpose, Model: e.Model, MaxTokens: e.MaxTokens, InputTokens: e.InputTokens,
			OutputTokens: e.OutputTokens, Status: e.Status, Kind: e.Kind, AtMS: e.TimeMS, WaitBeforeMS: wait.Milliseconds()}
	}
	for _, act := range a.Plan {
		wait := act.Wait
		if act.Compact && !compacted {
			compacted = true
			at := take(wait)
			if at == nil {
				break
			}
			wait = 0
			r.RepairCalls++
			r.RepairInputTokens += at.InputTokens
			r.RepairLog = append(r.RepairLog, *at)
		}
		at := take(wait)
		if at == nil {
			break
		}
		r.Attempts++
		r.SubmittedInputTokens += at.InputTokens
		r.OutputTokens += at.OutputTokens
		r.AttemptsLog = append(r.AttemptsLog, *at)
	}
	return r
}
