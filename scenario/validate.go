package scenario

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml/token"

	"github.com/faultbench/faultbench/internal/names"
)

// nameRE is what a scenario name may be: it is a path segment of the
// mock's URLs (http://ADDR/<name>/), and "_faultbench" stays reserved.
// Strategy names follow the same rule (internal/names), and both are at
// most names.MaxBytes long.
var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// The ceilings on a scenario's sizes: what the harness and the mock can
// build. A turn is declared by size and synthesised as text of four bytes
// a token, so these bound the memory a scenario can ask for.
const (
	// MaxTokens is the largest size in tokens: a model's context_window
	// and max_output, the turn's max_tokens and system_tokens, a message
	// group's tokens, and the turn's whole input (system_tokens plus every group): 5
	// million, above the largest context window sold today (2 million).
	// A turn of 5 million tokens is a 20 MB request, which fits within the
	// 32 MB the mock (as the real API) accepts; 10 million did not.
	MaxTokens = 5_000_000
	// MaxMessages is the most messages a turn may declare (the sum of its
	// groups' counts): 100,000.
	MaxMessages = 100_000
	// MaxAnswerTokens is the largest answer the mock writes: the turn's
	// answer_tokens and compaction.summary_tokens, 1 million, eight times
	// the largest output a model sells today (128,000). The official SDKs
	// decode a streamed answer event by event, 16 tokens an event, at
	// about 10 µs each: a 5-million-token answer cost each run 3 s, and a
	// run of every preset over one such scenario took 98 s.
	MaxAnswerTokens = 1_000_000
	// MaxRetryDelay is the longest retry_delay a rule may script: 24 h, a
	// per-day quota's longest wait.
	MaxRetryDelay = 24 * time.Hour
)

// The purposes a rule can match (docs/scenario-format.md).
const (
	PurposeTurn   = "turn"
	PurposeRepair = "repair"
)

// Validate checks a scenario built in code (or changed after loading) as
// Parse checks a file, and returns every problem, as Parse does but
// without lines. It does not fill defaults.
func (s *Scenario) Validate() error {
	v := &validator{file: s.Path}
	v.scenario(s)
	return join(v.errs)
}

// validator checks a decoded scenario. pos says where each field path was
// written (a missing field is reported at its parent). A problem at, under
// or above a path in bad is not reported, as that value failed to decode
// and the decoder said so; nor is one exactly at a path in typo (a field
// that is missing because its key is misspelt, or the struct holding it).
type validator struct {
	tools map[string]bool // the scenario's tool names
	file  string
	pos   map[string]token.Position
	bad   map[string]bool
	typo  map[string]bool
	errs  []*Error
}

func (v *validator) errorf(path, format string, args ...any) {
	if v.typo[path] {
		return
	}
	for p, ok := path, true; ok; p, ok = parentPath(p) {
		if v.bad[p] {
			return
		}
	}
	for p := range v.bad { // a check of a whole whose part is unreadable
		if strings.HasPrefix(p, path+".") || strings.HasPrefix(p, path+"[") {
			return
		}
	}
	e := &Error{File: v.file, Field: clipField(path), Msg: fmt.Sprintf(format, args...)}
	for p, ok := path, true; ok; p, ok = parentPath(p) {
		if at, found := v.pos[p]; found {
			e.Line, e.Column = at.Line, at.Column
			break
		}
	}
	v.errs = append(v.errs, e)
}

// ceiling reports a size in tokens over MaxTokens.
func (v *validator) ceiling(path string, got int) {
	v.errorf(path, "must be <= %d (the ceiling on tokens), got %d", MaxTokens, got)
}

// answerCeiling reports an answer's size over MaxAnswerTokens.
func (v *validator) answerCeiling(path string, got int) {
	v.errorf(path, "must be <= %d (the ceiling on an answer), got %d", MaxAnswerTokens, got)
}

func (v *validator) scenario(s *Scenario) {
	switch {
	case s.Name == "":
		v.errorf("name", "required: the scenario's name, as in its URL (lower case, digits, . _ -)")
	case len(s.Name) > names.MaxBytes:
		v.errorf("name", "a name of %d bytes is too long: at most %d", len(s.Name), names.MaxBytes)
	case !nameRE.MatchString(s.Name):
		v.errorf("name", "%s cannot be a URL path segment: use lower case letters, digits, '.', '_' and '-', starting with a letter or digit", quote(s.Name))
	}
	if strings.TrimSpace(s.Description) == "" {
		v.errorf("description", "required: say what the scenario teaches")
	}
	v.models(s.Models)
	v.aliases(s)
	v.turn(s)
	v.workload(s.Workload)
	v.grade(s) // grade.go
	v.tools = map[string]bool{}
	for i, t := range s.Tools {
		tp := fmt.Sprintf("tools[%d]", i)
		switch {
		case t.Name == "":
			v.errorf(tp+".name", "required: the tool's name")
		case v.tools[t.Name]:
			v.errorf(tp+".name", "%s is declared twice", quote(t.Name))
		}
		v.tools[t.Name] = true
		if t.InputSchema != "" && !jsonObject(t.InputSchema) {
			v.errorf(tp+".input_schema", "must be a JSON object written as text")
		}
	}
	if s.Compaction.SummaryTokens < 0 {
		v.errorf("compaction.summary_tokens", "must be >= 0 (0 means %d), got %d", DefaultSummaryTokens, s.Compaction.SummaryTokens)
	} else if s.Compaction.SummaryTokens > MaxAnswerTokens {
		v.answerCeiling("compaction.summary_tokens", s.Compaction.SummaryTokens)
	}
	for i, r := range s.Script {
		v.rule(s, fmt.Sprintf("script[%d]", i), r)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Expect)) {
		v.expect(keyPath("expect", name), name, s.Expect[name], !s.Workload.IsZero(), priced(s))
	}
}

func (v *validator) models(models map[string]Model) {
	if len(models) == 0 {
		v.errorf("models", "required: at least one model, such as  primary: {context_window: 200000, max_output: 32000}")
		return
	}
	for _, name := range slices.Sorted(maps.Keys(models)) {
		m, path := models[name], keyPath("models", name)
		if strings.TrimSpace(name) == "" {
			v.errorf(path, "a model needs a name")
		}
		switch {
		case m.ContextWindow <= 0:
			v.errorf(path+".context_window", "must be > 0, got %d", m.ContextWindow)
		case m.ContextWindow > MaxTokens:
			v.errorf(path+".context_window", "must be <= %d (the ceiling on tokens), got %d", MaxTokens, m.ContextWindow)
		}
		switch {
		case m.MaxOutput <= 0:
			v.errorf(path+".max_output", "must be > 0, got %d", m.MaxOutput)
		case m.ContextWindow > 0 && m.MaxOutput > m.ContextWindow:
			v.errorf(path+".max_output", "must be <= context_window (%d), got %d", m.ContextWindow, m.MaxOutput)
		}
		v.quota(path, m)
		v.cost(path, m)
	}
}

// declared reports a model reference that names no model; it says nothing
// when the models block itself failed to decode.
func (v *validator) declared(s *Scenario, path, model string) bool {
	if _, ok := s.Models[model]; ok || v.bad["models"] {
		return true
	}
	names := slices.Sorted(maps.Keys(s.Models))
	for i, n := range names {
		names[i] = quote(n)
	}
	if len(names) == 0 {
		v.errorf(path, "model %s is not declared in models", quote(model))
	} else {
		v.errorf(path, "model %s is not declared in models (declared: %s)", quote(model), strings.Join(names, ", "))
	}
	return false
}

// aliases checks that each alias names a served model and is not itself
// one (a served name is answered as itself, so such an alias would never
// apply).
func (v *validator) aliases(s *Scenario) {
	for _, from := range slices.Sorted(maps.Keys(s.Aliases)) {
		to, path := s.Aliases[from], keyPath("aliases", from)
		if strings.TrimSpace(from) == "" {
			v.errorf(path, "an alias needs a name: the model name a client sends, or %q for every other name", AnyModel)
			continue
		}
		if _, served := s.Models[from]; served {
			v.errorf(path, "%q is a model of models: it is served as itself, so the alias would never apply", from)
			continue
		}
		if to == "" {
			v.errorf(path, "required: the model of models the name %q is served as", from)
			continue
		}
		v.declared(s, path, to)
	}
}

func (v *validator) turn(s *Scenario) {
	t := s.Turn
	if s.MockOnly() {
		if w := s.Workload; !w.IsZero() || w.Concurrency != 0 || w.Start != (Start{}) || w.Background != 0 {
			v.errorf("workload", "a fleet sends copies of the turn: add a turn section")
		}
		return
	}
	if t.Model == "" {
		v.errorf("turn.model", "required: the model the turn asks for")
	} else {
		v.declared(s, "turn.model", t.Model)
	}
	seen := map[string]int{}
	for i, f := range t.Fallback {
		path := fmt.Sprintf("turn.fallback[%d]", i)
		switch prev, dup := seen[f]; {
		case f == "":
			v.errorf(path, "empty model name")
		case f == t.Model:
			v.errorf(path, "%s is the turn's own model; a fallback is another model", quote(f))
		case dup:
			v.errorf(path, "%s is already fallback[%d]", quote(f), prev)
		default:
			v.declared(s, path, f)
		}
		if _, dup := seen[f]; !dup {
			seen[f] = i
		}
	}
	switch {
	case t.MaxTokens <= 0:
		v.errorf("turn.max_tokens", "must be > 0, got %d", t.MaxTokens)
	case t.MaxTokens > MaxTokens:
		v.ceiling("turn.max_tokens", t.MaxTokens)
	}
	switch t.Wire {
	case "", WireAnthropic, WireGemini, WireOpenAI, WireAzure, WireBedrock, WireVertex, WireOpenRouter:
	case WireOpenAIResponses:
		if t.Stream {
			v.errorf("turn.stream", "the harness streams only on the %s, %s, %s, %s, %s, %s and %s wires, not on %s", WireAnthropic, WireOpenAI, WireGemini, WireAzure, WireBedrock, WireVertex, WireOpenRouter, t.Wire)
		}
	default:
		v.errorf("turn.wire", "%q is not a wire; use %s, %s, %s, %s, %s, %s, %s or %s", t.Wire, WireAnthropic, WireOpenAI, WireOpenAIResponses, WireGemini, WireAzure, WireBedrock, WireVertex, WireOpenRouter)
	}
	switch {
	case t.SystemTokens < 0:
		v.errorf("turn.system_tokens", "must be >= 0, got %d", t.SystemTokens)
	case t.SystemTokens > MaxTokens:
		v.ceiling("turn.system_tokens", t.SystemTokens)
	}
	// Each size is checked against the ceilings before it is added, so
	// the sums cannot overflow.
	input, messages, sizesOK := max(t.SystemTokens, 0), 0, t.SystemTokens <= MaxTokens
	if len(t.Messages) == 0 {
		v.errorf("turn.messages", "required: at least one group, such as  - {count: 2, tokens: 1000}")
	}
	for i, g := range t.Messages {
		path := fmt.Sprintf("turn.messages[%d]", i)
		switch {
		case g.Count < 1:
			v.errorf(path+".count", "must be >= 1, got %d", g.Count)
		case g.Count > MaxMessages:
			v.errorf(path+".count", "must be <= %d (the ceiling on a turn's messages), got %d", MaxMessages, g.Count)
		case g.Tokens > MaxTokens:
			v.ceiling(path+".tokens", g.Tokens)
		case g.Tokens < g.Count:
			v.errorf(path+".tokens", "must be >= count (%d): every message holds at least one token, got %d", g.Count, g.Tokens)
		}
		if g.Count > MaxMessages || g.Tokens > MaxTokens {
			sizesOK = false
		} else if sizesOK {
			input += max(g.Tokens, 0)
			messages += max(g.Count, 0)
		}
	}
	switch {
	case !sizesOK:
	case input > MaxTokens:
		v.errorf("turn.messages", "the turn's input (system_tokens and every group) must be <= %d tokens (the ceiling), got %d", MaxTokens, input)
	case messages > MaxMessages:
		v.errorf("turn.messages", "the groups' counts must add up to <= %d messages (the ceiling), got %d", MaxMessages, messages)
	}
	switch {
	case t.AnswerTokens <= 0:
		v.errorf("turn.answer_tokens", "must be > 0, got %d", t.AnswerTokens)
	case t.AnswerTokens > MaxAnswerTokens:
		v.answerCeiling("turn.answer_tokens", t.AnswerTokens)
	}
}

// jsonObject reports whether s is one JSON object.
func jsonObject(s string) bool {
	var m map[string]any
	return json.Unmarshal([]byte(s), &m) == nil && m != nil
}

func (v *validator) rule(s *Scenario, path string, r Rule) {
	w := r.When
	if w.Model != "" {
		v.declared(s, path+".when.model", w.Model)
	}
	if w.Attempt < 0 {
		v.errorf(path+".when.attempt", "must be >= 0 (attempts count from 1; 0 or absent matches any), got %d", w.Attempt)
	}
	switch w.Purpose {
	case "", PurposeTurn, PurposeRepair:
	default:
		v.errorf(path+".when.purpose", "must be %q or %q, got %s", PurposeTurn, PurposeRepair, quote(w.Purpose))
	}
	if w.After < 0 {
		v.errorf(path+".when.after", "must not be negative, got %s", w.After)
	}
	if w.Before < 0 {
		v.errorf(path+".when.before", "must not be negative, got %s", w.Before)
	} else if w.Before != 0 && w.Before <= w.After {
		v.errorf(path+".when.before", "must be later than after (%s), got %s", w.After, w.Before)
	}
	if r.Times < 0 {
		v.errorf(path+".times", "must be >= 0 (0 or absent: no limit), got %d", r.Times)
	}
	v.respond(path+".respond", r.Respond)
}

func (v *validator) respond(path string, r Respond) {
	given := 0
	for _, set := range []bool{r.OK, r.Status != 0, !r.Fault.IsZero(), len(r.ToolUse) > 0} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		v.errorf(path, "takes one of ok: true, a status, a fault or tool_use, not %s", describeRespond(r))
	case given == 0 && r.Cache == "":
		v.errorf(path, "required: ok: true, a status such as 529, a fault such as reset, or tool_use")
	case r.Status != 0 && (r.Status < 400 || r.Status > 599):
		v.errorf(path+".status", "must be an error status, 400 to 599, got %d", r.Status)
	}
	if !r.Fault.IsZero() {
		v.fault(path+".fault", r.Fault)
	}
	for i, t := range r.ToolUse {
		tp := fmt.Sprintf("%s.tool_use[%d]", path, i)
		if t.Name == "" {
			v.errorf(tp+".name", "required: the tool to call")
		} else if !v.tools[t.Name] {
			v.errorf(tp+".name", "%s is not a tool of the scenario's tools", quote(t.Name))
		}
		if t.Input != "" && !jsonObject(t.Input) {
			v.errorf(tp+".input", "must be a JSON object written as text, such as '{\"path\": \"a.txt\"}'")
		}
	}
	if len(r.ToolUse) == 0 && (r.Cycle || r.Vary) {
		v.errorf(path, "cycle and vary only go with tool_use")
	}
	if r.Status == 0 && r.Fault.Kind != FaultError {
		if r.Type != "" {
			v.errorf(path+".type", "only goes with a status, or a fault with error_after")
		}
		if r.Message != "" {
			v.errorf(path+".message", "only goes with a status, or a fault with error_after")
		}
	}
	switch {
	case r.Cache != "" && r.Cache != CacheMiss:
		v.errorf(path+".cache", "%s is not a cache answer; use %s", quote(r.Cache), CacheMiss)
	case r.Cache != "" && r.Status != 0:
		v.errorf(path+".cache", "only goes with an answer (ok: true, a fault or tool_use), not a status")
	}
	switch {
	case r.EarlyRetry != "" && r.EarlyRetry != EarlyRetryRefused && r.EarlyRetry != EarlyRetryScripted:
		v.errorf(path+".early_retry", "%s is not an answer to an early retry; use %s or %s", quote(r.EarlyRetry), EarlyRetryRefused, EarlyRetryScripted)
	case r.EarlyRetry != "" && r.Status == 0:
		v.errorf(path+".early_retry", "only goes with a status (a 429, 503 or 529 that asks for a wait)")
	}
	switch r.Quota {
	case "", QuotaPerMinute, QuotaPerDay:
	default:
		v.errorf(path+".quota", "%s is not a quota; use %s or %s", quote(r.Quota), QuotaPerMinute, QuotaPerDay)
	}
	if r.RetryDelay.D() > MaxRetryDelay { // a negative one is refused as it is read
		v.errorf(path+".retry_delay", "must be at most %s, got %s", Duration(MaxRetryDelay), r.RetryDelay)
	}
	if r.Status == 0 && r.Fault.Kind != FaultError && (r.Quota != "" || r.RetryDelay != 0) {
		v.errorf(path, "quota and retry_delay only go with a status, or a fault with error_after")
	}
	v.errorBody(path, r)
	seen := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(r.Headers)) {
		hp := keyPath(path+".headers", name)
		if !validHeaderName(name) {
			v.errorf(hp, "%s is not a valid header name", quote(name))
		} else if prev, dup := seen[strings.ToLower(name)]; dup {
			v.errorf(hp, "same header as %s (header names ignore case)", quote(prev))
		}
		seen[strings.ToLower(name)] = name
		// An empty value removes a header the mock sends by default.
		if strings.ContainsAny(r.Headers[name], "\r\n\x00") {
			v.errorf(hp, "the value must be one line")
		}
	}
}

// validHeaderName reports whether s is an HTTP token (RFC 9110 §5.1).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// expect checks one strategy's budgets; fleet says whether the scenario
// has a workload, without which a workload's figure has no value.
func (v *validator) expect(path, strategy string, e Expect, fleet, priced bool) {
	if strings.TrimSpace(strategy) == "" {
		v.errorf(path, "a strategy name is required as the key")
	}
	if e.Outcome != "" {
		if _, err := ParseOutcome(e.Outcome); err != nil {
			v.errorf(path+".outcome", "%v", err)
		}
	}
	for _, f := range e.fields() {
		if f.value == "" {
			continue
		}
		b, err := ParseBudget(f.value)
		switch {
		case f.workload && !fleet:
			v.errorf(path+"."+f.name, "%s is a workload's figure, and the scenario has no workload", f.name)
		case f.priced && !priced:
			v.errorf(path+"."+f.name, "%s needs prices: give the scenario's models a price (models.<name>.price)", f.name)
		case err != nil:
			v.errorf(path+"."+f.name, "%v", err)
		case f.duration && !b.IsDuration() && b.Value != 0:
			v.errorf(path+"."+f.name, "%s has no unit: write \"%s %gs\" (or ms, m, h)", quote(f.value), b.Op, b.Value)
		case !f.duration && b.IsDuration():
			v.errorf(path+"."+f.name, "%s is a count, not a duration", quote(f.value))
		}
	}
}
