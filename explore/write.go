package explore

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/internal/atomicfile"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/scenario"
)

// Search says how a case was found, for the written description.
type Search struct {
	Options Options
	Found   Found
}

// FileName is the name of the file Write makes for a case: the scenario's
// name and ".yaml", so the same search writes the same file.
func FileName(c *Case) string { return c.Scenario.Name + ".yaml" }

// Write writes the shrunk case of s as a scenario file in dir (made when
// missing) and returns its path. The file carries a description of what
// happened, with the figures, and an expect block that the explored
// strategy fails today (Expectation); the same search writes the same
// bytes.
func Write(dir string, s Search) (string, error) {
	c := s.Found.Shrunk
	if c == nil {
		return "", fmt.Errorf("explore: nothing to write: the objective held for no script")
	}
	sc := clone(c.Scenario)
	sc.Description = describe(s)
	sc.Expect = Expectation(s.Options, *c)
	data := Marshal(sc)
	if _, err := scenario.Parse(FileName(c), data); err != nil {
		return "", fmt.Errorf("explore: the written scenario does not load (a bug): %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("explore: %w", err)
	}
	path := filepath.Join(dir, FileName(c))
	// Whole or not at all, and never through a symlink at path.
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("explore: %w", err)
	}
	return path, nil
}

// Expectation is the expect block of a written case: for the explored
// strategy, the reference's figures as budgets it breaks today (its
// outcome when the reference succeeded; attempts, repair calls, wait and
// tokens at most the reference's), so that the file is a regression test
// that passes once the strategy does as well; for --against, the figures
// it had. A violation has no reference: the budget is fewer attempts (or
// steps, for an agent turn) than the strategy took.
func Expectation(o Options, c Case) map[string]scenario.Expect {
	r := c.Result
	if c.Reference == nil {
		if len(c.Scenario.Tools) > 0 {
			return map[string]scenario.Expect{r.Strategy: {Steps: fmt.Sprintf("< %d", r.Steps)}}
		}
		return map[string]scenario.Expect{r.Strategy: {Attempts: fmt.Sprintf("< %d", max(r.Attempts, 1))}}
	}
	ref := *c.Reference
	e := scenario.Expect{
		Attempts:             fmt.Sprintf("<= %d", ref.Attempts),
		RepairCalls:          fmt.Sprintf("<= %d", ref.RepairCalls),
		Wait:                 "<= " + seconds(ref.WaitMS),
		SubmittedInputTokens: fmt.Sprintf("<= %d", ref.SubmittedInputTokens),
		RepairInputTokens:    fmt.Sprintf("<= %d", ref.RepairInputTokens),
	}
	if ref.Outcome == ledger.OutcomeSuccess {
		e.Outcome = string(ledger.OutcomeSuccess)
	}
	out := map[string]scenario.Expect{r.Strategy: e}
	if o.Objective.NeedsAgainst() && ref.Strategy != r.Strategy {
		out[ref.Strategy] = scenario.Expect{Outcome: string(ref.Outcome), Attempts: fmt.Sprintf("== %d", ref.Attempts),
			Wait: "== " + seconds(ref.WaitMS)}
	}
	return out
}

// describe says what happened in the case, with its figures, and how it
// was found.
func describe(s Search) string {
	c, o := s.Found.Shrunk, s.Options
	var b strings.Builder
	fmt.Fprintf(&b, "Found by faultbench explore --strategy %s", o.Strategy.Name)
	if o.Objective.NeedsAgainst() {
		fmt.Fprintf(&b, " --against %s", o.Against.Name)
	}
	fmt.Fprintf(&b, " --objective %s --seed %d: script %d of %d, shrunk in %d tries.", o.Objective, o.Seed, c.Index, s.Found.Ran, s.Found.Tried)
	if reached := Reached(c.Scenario); len(reached) > 0 {
		fmt.Fprintf(&b, " Faults and shapes: %s.", strings.Join(reached, ", "))
	}
	fmt.Fprintf(&b, " %s %s.", c.Result.Strategy, story(c.Result))
	switch {
	case len(c.Broken) > 0:
		fmt.Fprintf(&b, " It breaks %s: %s.", c.Broken[0].Property, c.Broken[0].Detail)
	case c.Reference != nil:
		who := c.Reference.Strategy
		if c.Plan != nil {
			fmt.Fprintf(&b, " Hindsight (%s) %s.", c.Plan, story(*c.Reference))
		} else {
			fmt.Fprintf(&b, " %s %s.", who, story(*c.Reference))
		}
		if c.Result.Outcome != ledger.OutcomeSuccess && c.Reference.Outcome == ledger.OutcomeSuccess {
			// A failure is no cost to compare: the score ranks it by the
			// declared cost order, where any failure is dearer than a success.
			fmt.Fprintf(&b, " %s did not succeed where %s did: scored %.2f× %s by the declared cost order (docs/explore.md).",
				c.Result.Strategy, who, c.Score, who)
		} else {
			fmt.Fprintf(&b, " %s cost %.2f× %s (docs/explore.md).", c.Result.Strategy, c.Score, who)
		}
	}
	if c.Reference == nil {
		b.WriteString(" The expect block fails today: it asks for fewer attempts than the strategy took.")
	} else {
		b.WriteString(" The expect block fails today: it asks the explored strategy to do as well.")
	}
	return b.String()
}

// story tells a run's figures: its outcome, what its attempts met, its
// wait and tokens.
func story(r ledger.Result) string {
	var kinds []string
	count := map[string]int{}
	for _, a := range r.AttemptsLog {
		if count[a.Kind] == 0 {
			kinds = append(kinds, a.Kind)
		}
		count[a.Kind]++
	}
	met := make([]string, len(kinds))
	for i, k := range kinds {
		met[i] = fmt.Sprintf("%s ×%d", k, count[k])
	}
	s := fmt.Sprintf("ended %s after %d attempts", r.Outcome, r.Attempts)
	if r.RepairCalls > 0 {
		s += fmt.Sprintf(" and %d repair calls", r.RepairCalls)
	}
	if len(met) > 0 {
		s += " (" + strings.Join(met, ", ") + ")"
	}
	return s + fmt.Sprintf(", waiting %s and submitting %d input tokens", seconds(r.WaitMS), r.SubmittedInputTokens+r.RepairInputTokens)
}

// Marshal writes sc as a scenario file, fields in the order of
// docs/scenario-format.md, maps in key order, so the same scenario gives
// the same bytes.
func Marshal(sc *scenario.Scenario) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "name: %s\n", sc.Name)
	b.WriteString("description: >\n")
	for _, line := range wrap(sc.Description, 72) {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	b.WriteString("models:\n")
	for _, name := range slices.Sorted(maps.Keys(sc.Models)) {
		m := sc.Models[name]
		fmt.Fprintf(&b, "  %s: {context_window: %d, max_output: %d}\n", name, m.ContextWindow, m.MaxOutput)
	}
	t := sc.Turn
	b.WriteString("turn:\n")
	fmt.Fprintf(&b, "  model: %s\n", t.Model)
	if len(t.Fallback) > 0 {
		fmt.Fprintf(&b, "  fallback: [%s]\n", strings.Join(t.Fallback, ", "))
	}
	fmt.Fprintf(&b, "  max_tokens: %d\n", t.MaxTokens)
	flag := func(name string, on bool) {
		if on {
			fmt.Fprintf(&b, "  %s: true\n", name)
		}
	}
	if t.Wire != "" {
		fmt.Fprintf(&b, "  wire: %s\n", t.Wire)
	}
	flag("stream", t.Stream)
	flag("background", t.Background)
	flag("auth_refresh", t.AuthRefresh)
	fmt.Fprintf(&b, "  system_tokens: %d\n", t.SystemTokens)
	b.WriteString("  messages:\n")
	for _, g := range t.Messages {
		fmt.Fprintf(&b, "    - {count: %d, tokens: %d}\n", g.Count, g.Tokens)
	}
	fmt.Fprintf(&b, "  answer_tokens: %d\n", t.AnswerTokens)
	if sc.Compaction.SummaryTokens > 0 {
		fmt.Fprintf(&b, "compaction: {summary_tokens: %d}\n", sc.Compaction.SummaryTokens)
	}
	if len(sc.Tools) > 0 {
		b.WriteString("tools:\n")
		for _, tl := range sc.Tools {
			fmt.Fprintf(&b, "  - name: %s\n", tl.Name)
			if tl.Error != "" {
				fmt.Fprintf(&b, "    error: %s\n", strconv.Quote(tl.Error))
			} else {
				fmt.Fprintf(&b, "    result: %s\n", strconv.Quote(tl.Result))
			}
			if tl.VaryResult {
				b.WriteString("    vary_result: true\n")
			}
		}
	}
	if len(sc.Script) > 0 {
		b.WriteString("script:\n")
		for _, r := range sc.Script {
			writeRule(&b, r)
		}
	} else {
		b.WriteString("script: []\n")
	}
	if len(sc.Expect) > 0 {
		b.WriteString("expect:\n")
		for _, name := range slices.Sorted(maps.Keys(sc.Expect)) {
			fmt.Fprintf(&b, "  %s: {%s}\n", name, expectFields(sc.Expect[name]))
		}
	}
	return b.Bytes()
}

func writeRule(b *bytes.Buffer, r scenario.Rule) {
	var when []string
	w := r.When
	if w.Model != "" {
		when = append(when, "model: "+w.Model)
	}
	if w.Attempt != 0 {
		when = append(when, fmt.Sprintf("attempt: %d", w.Attempt))
	}
	if w.After != 0 {
		when = append(when, "after: "+w.After.D().String())
	}
	if w.Before != 0 {
		when = append(when, "before: "+w.Before.D().String())
	}
	if w.Purpose != "" {
		when = append(when, "purpose: "+w.Purpose)
	}
	if w.Contains != "" {
		when = append(when, "contains: "+strconv.Quote(w.Contains))
	}
	prefix := "  - "
	if len(when) > 0 {
		fmt.Fprintf(b, "%swhen: {%s}\n", prefix, strings.Join(when, ", "))
		prefix = "    "
	}
	if r.Times > 0 {
		fmt.Fprintf(b, "%stimes: %d\n", prefix, r.Times)
		prefix = "    "
	}
	fmt.Fprintf(b, "%srespond: {%s}\n", prefix, respondFields(r.Respond))
}

func respondFields(r scenario.Respond) string {
	var f []string
	switch {
	case r.OK:
		f = append(f, "ok: true")
	case r.Status != 0:
		f = append(f, fmt.Sprintf("status: %d", r.Status))
	case !r.Fault.IsZero():
		f = append(f, "fault: "+r.Fault.String())
	case len(r.ToolUse) > 0:
		calls := make([]string, len(r.ToolUse))
		for i, t := range r.ToolUse {
			calls[i] = fmt.Sprintf("{name: %s, input: %s}", t.Name, strconv.Quote(t.Input))
		}
		f = append(f, "tool_use: ["+strings.Join(calls, ", ")+"]")
		if r.Cycle {
			f = append(f, "cycle: true")
		}
		if r.Vary {
			f = append(f, "vary: true")
		}
	}
	if r.Type != "" {
		f = append(f, "type: "+r.Type)
	}
	if r.Message != "" {
		f = append(f, "message: "+strconv.Quote(r.Message))
	}
	if len(r.Headers) > 0 {
		var h []string
		for _, k := range slices.Sorted(maps.Keys(r.Headers)) {
			h = append(h, fmt.Sprintf("%s: %s", k, strconv.Quote(r.Headers[k])))
		}
		f = append(f, "headers: {"+strings.Join(h, ", ")+"}")
	}
	return strings.Join(f, ", ")
}

func expectFields(e scenario.Expect) string {
	var f []string
	add := func(name, v string) {
		if v != "" {
			f = append(f, fmt.Sprintf("%s: %s", name, strconv.Quote(v)))
		}
	}
	if e.Outcome != "" {
		f = append(f, "outcome: "+e.Outcome)
	}
	add("attempts", e.Attempts)
	add("repair_calls", e.RepairCalls)
	add("wait", e.Wait)
	add("submitted_input_tokens", e.SubmittedInputTokens)
	add("repair_input_tokens", e.RepairInputTokens)
	add("steps", e.Steps)
	return strings.Join(f, ", ")
}

// wrap breaks text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
