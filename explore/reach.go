package explore

import (
	"reflect"
	"slices"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/scenario"
)

// Reached names what a scenario holds of the generator's vocabulary: the
// faults of FaultNames its rules answer with and the shapes of TurnShapes
// its turn has, in those lists' order. It reads the scenario, not how it
// was made, so it names a shrunk or hand-written scenario's faults too.
func Reached(sc *scenario.Scenario) []string {
	var out []string
	for _, f := range faults {
		for _, r := range sc.Script {
			if sameRespond(r.Respond, f.Respond) {
				out = append(out, f.Name)
				break
			}
		}
	}
	return append(out, shapes(sc)...)
}

// sameRespond reports whether two answers are the same fault, whatever
// the shrinker did to its figures (how many events before a cut, how
// slow a dribble, how long a delay short of the client's deadline).
func sameRespond(a, b scenario.Respond) bool {
	if len(a.Headers) == 0 && len(b.Headers) == 0 {
		a.Headers, b.Headers = nil, nil
	}
	a.Fault, b.Fault = family(a.Fault), family(b.Fault)
	return reflect.DeepEqual(a, b)
}

func family(f scenario.Fault) scenario.Fault {
	if f.After > 0 {
		f.After = 1
	}
	if f.Dribble > 0 {
		f.Dribble = 1
	}
	switch {
	case f.Delay.D() > harness.AttemptTimeout:
		f.Delay = scenario.Duration(harness.AttemptTimeout + 1)
	case f.Delay > 0:
		f.Delay = 1
	}
	return f
}

func shapes(sc *scenario.Scenario) []string {
	t := sc.Turn
	var out []string
	input := t.SystemTokens
	for _, g := range t.Messages {
		input += g.Tokens
	}
	window := sc.Models[t.Model].ContextWindow
	has := map[string]bool{
		ShapeOverflowCompact: input > window,
		ShapeOverflowAdjust:  input <= window && input+t.MaxTokens > window,
		ShapeTruncation:      len(sc.Tools) == 0 && t.AnswerTokens > t.MaxTokens,
		ShapeToolLoop:        len(sc.Tools) > 0,
		ShapeFallback:        len(t.Fallback) > 0,
		ShapeStream:          t.Stream,
		ShapeOpenAI:          t.Wire == scenario.WireOpenAI,
		ShapeBackground:      t.Background,
		ShapeAuthRefresh:     t.AuthRefresh,
		ShapeQuota:           sc.Models[t.Model].Limits != (scenario.RateLimits{}),
		ShapeRecovers: slices.ContainsFunc(sc.Script, func(r scenario.Rule) bool {
			return r.Respond.OK && r.When == (scenario.When{}) && r.Times == 0
		}),
	}
	for _, s := range TurnShapes() {
		if has[s] {
			out = append(out, s)
		}
	}
	return out
}
