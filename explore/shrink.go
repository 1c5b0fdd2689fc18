package explore

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/scenario"
)

// DefaultShrinkBound is how many candidates the shrinker runs at most.
const DefaultShrinkBound = 400

// KeepScore is the share of the found case's score a shrunk candidate
// must keep: a candidate whose ratio fell below half the worst case's is
// a milder case, not a smaller one.
const KeepScore = 0.5

// shrink makes c's scenario smaller while the objective holds: greedy
// passes over the candidates of smaller (in its order), taking the first
// that keeps the objective (keeps) and starting again from it, until none
// does or the bound is spent. It returns the smallest case and the
// candidates run.
func (x *explorer) shrink(ctx context.Context, b *harness.Bench, c Case) (Case, int, error) {
	found := c
	bound := x.opts.ShrinkBound
	if bound <= 0 {
		bound = DefaultShrinkBound
	}
	tried := 0
	for progress := true; progress && tried < bound; {
		progress = false
		for _, cand := range smaller(c.Scenario) {
			if tried >= bound {
				break
			}
			if cand.Validate() != nil {
				continue
			}
			tried++
			got, err := x.try(ctx, b, cand, c.Index)
			if err != nil {
				return c, tried, err
			}
			if keeps(found, got) {
				c, progress = got, true
				break
			}
		}
	}
	return c, tried, nil
}

// keeps reports whether candidate got keeps the objective of the found
// case: it holds, breaks the same first property (violation) or keeps
// KeepScore of its score (the ratios).
func keeps(found, got Case) bool {
	if !got.Holds {
		return false
	}
	if len(found.Broken) > 0 {
		return len(got.Broken) > 0 && got.Broken[0].Property == found.Broken[0].Property
	}
	return got.Score >= KeepScore*found.Score
}

// try serves and judges one candidate.
func (x *explorer) try(ctx context.Context, b *harness.Bench, sc *scenario.Scenario, i int) (Case, error) {
	if err := b.Add(sc); err != nil {
		return Case{}, err
	}
	defer b.Remove(sc.Name)
	return x.judge(ctx, b, sc, i)
}

// smaller lists the one-step simplifications of sc, most reducing first:
// a rule less; a rule's when condition less; fewer times; shorter
// windows; a simpler turn (no quotas, fallback, background, refresh, stream or
// second wire); smaller messages, system prompt, answer and summary; a
// fault that strikes sooner or dribbles faster.
func smaller(sc *scenario.Scenario) []*scenario.Scenario {
	var out []*scenario.Scenario
	edit := func(f func(s *scenario.Scenario)) {
		s := clone(sc)
		f(s)
		out = append(out, s)
	}
	for i := range sc.Script {
		edit(func(s *scenario.Scenario) { s.Script = slices.Delete(s.Script, i, i+1) })
	}
	for i, r := range sc.Script {
		w := r.When
		if w.Model != "" {
			edit(func(s *scenario.Scenario) { s.Script[i].When.Model = "" })
		}
		if w.Attempt != 0 {
			edit(func(s *scenario.Scenario) { s.Script[i].When.Attempt = 0 })
		}
		if w.After != 0 {
			edit(func(s *scenario.Scenario) { s.Script[i].When.After = 0 })
			edit(func(s *scenario.Scenario) { s.Script[i].When.After = halfSeconds(w.After) })
		}
		if w.Before != 0 {
			edit(func(s *scenario.Scenario) { s.Script[i].When.Before = 0 })
			edit(func(s *scenario.Scenario) { s.Script[i].When.Before = halfSeconds(w.Before) })
		}
		switch {
		case r.Times > 1:
			edit(func(s *scenario.Scenario) { s.Script[i].Times = r.Times - 1 })
		case r.Times == 0 && !r.Respond.OK:
			edit(func(s *scenario.Scenario) { s.Script[i].Times = 1 })
		}
		if f := r.Respond.Fault; f.After > 1 {
			edit(func(s *scenario.Scenario) { s.Script[i].Respond.Fault.After = f.After / 2 })
		}
		if f := r.Respond.Fault; f.Dribble > 0 || f.Delay > 0 {
			edit(func(s *scenario.Scenario) {
				s.Script[i].Respond.Fault.Dribble = halfSeconds(f.Dribble)
				s.Script[i].Respond.Fault.Delay = halfSeconds(f.Delay)
			})
		}
	}
	t := sc.Turn
	if len(t.Fallback) > 0 {
		edit(func(s *scenario.Scenario) {
			for _, m := range s.Turn.Fallback {
				delete(s.Models, m)
			}
			s.Turn.Fallback = nil
			for i := range s.Script {
				if s.Script[i].When.Model != "" && s.Script[i].When.Model != s.Turn.Model {
					s.Script[i].When.Model = s.Turn.Model
				}
			}
		})
	}
	if m := sc.Models[t.Model]; m.Limits != (scenario.RateLimits{}) {
		edit(func(s *scenario.Scenario) {
			m.Limits = scenario.RateLimits{}
			s.Models[t.Model] = m
		})
	}
	if t.Background {
		edit(func(s *scenario.Scenario) { s.Turn.Background = false })
	}
	if t.AuthRefresh {
		edit(func(s *scenario.Scenario) { s.Turn.AuthRefresh = false })
	}
	if t.Stream {
		edit(func(s *scenario.Scenario) { s.Turn.Stream = false })
	}
	if t.Wire != "" {
		edit(func(s *scenario.Scenario) { s.Turn.Wire = "" })
	}
	g := t.Messages[0]
	if g.Count > 1 {
		edit(func(s *scenario.Scenario) { s.Turn.Messages[0].Count = g.Count / 2 })
	}
	if g.Tokens/2 >= g.Count {
		edit(func(s *scenario.Scenario) { s.Turn.Messages[0].Tokens = g.Tokens / 2 })
	}
	if t.SystemTokens > 0 {
		edit(func(s *scenario.Scenario) { s.Turn.SystemTokens = t.SystemTokens / 2 })
	}
	if t.AnswerTokens > 1 {
		edit(func(s *scenario.Scenario) { s.Turn.AnswerTokens = t.AnswerTokens / 2 })
	}
	if sc.Compaction.SummaryTokens > 1 {
		edit(func(s *scenario.Scenario) { s.Compaction.SummaryTokens = sc.Compaction.SummaryTokens / 2 })
	}
	return out
}

// halfSeconds halves a duration, to whole seconds when it is a second or
// more, so that a written file reads well.
func halfSeconds(d scenario.Duration) scenario.Duration {
	h := d.D() / 2
	if h >= time.Second {
		h = h.Truncate(time.Second)
	}
	return scenario.Duration(h)
}

// clone copies sc deeply enough that a candidate's edits leave sc alone.
func clone(sc *scenario.Scenario) *scenario.Scenario {
	s := *sc
	s.Models = maps.Clone(sc.Models)
	s.Turn.Fallback = slices.Clone(sc.Turn.Fallback)
	s.Turn.Messages = slices.Clone(sc.Turn.Messages)
	s.Script = slices.Clone(sc.Script)
	for i := range s.Script {
		s.Script[i].Respond.Headers = maps.Clone(s.Script[i].Respond.Headers)
		s.Script[i].Respond.ToolUse = slices.Clone(s.Script[i].Respond.ToolUse)
	}
	s.Tools = slices.Clone(sc.Tools)
	s.Expect = maps.Clone(sc.Expect)
	return &s
}
