package scenario

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Budget is one comparison from an expect block: "<= 4", "< 3s", "== 0",
// or a bare "5", which means "== 5".
type Budget struct {
	Op    string  // one of <=, <, >=, >, ==, !=
	Value float64 // a duration is in milliseconds
	Raw   string  // as written, trimmed
}

// budgetOps are the comparisons, longest first so "<=" is not read as "<".
var budgetOps = []string{"<=", ">=", "==", "!=", "<", ">"}

// plainNumber is a budget's number: digits with an optional decimal part.
var plainNumber = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// ParseBudget parses s: an optional comparison (<=, <, >=, >, ==, !=; none
// means ==) and a value, either a plain number (4, 2.5) or a duration
// ("3s", "500ms", "1m30s"), which becomes milliseconds.
func ParseBudget(s string) (Budget, error) {
	raw := strings.TrimSpace(s)
	if raw == "" {
		return Budget{}, errors.New("empty budget: want a comparison such as \"<= 4\", \"< 3s\" or \"== 0\"")
	}
	op, rest := "==", raw
	for _, o := range budgetOps {
		if after, ok := strings.CutPrefix(raw, o); ok {
			op, rest = o, strings.TrimSpace(after)
			break
		}
	}
	b := Budget{Op: op, Raw: raw}
	if rest == "" {
		return Budget{}, fmt.Errorf("budget %s has no value after %s", quote(raw), op)
	}
	if plainNumber.MatchString(rest) {
		f, err := strconv.ParseFloat(rest, 64)
		if err != nil { // out of range: more digits than a float64 holds
			return Budget{}, fmt.Errorf("budget %s: %v", quote(raw), err)
		}
		b.Value = f
		return b, nil
	}
	d, err := time.ParseDuration(rest)
	if err != nil || strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "-") {
		return Budget{}, fmt.Errorf("budget %s: want a comparison (<=, <, >=, >, ==, !=) and a number or a duration, such as \"<= 4\", \"< 3s\" or \"== 0\"", quote(raw))
	}
	b.Value = float64(d) / float64(time.Millisecond)
	return b, nil
}

// Holds reports whether v satisfies the budget. An unknown Op holds
// nothing.
func (b Budget) Holds(v float64) bool {
	switch b.Op {
	case "<=":
		return v <= b.Value
	case "<":
		return v < b.Value
	case ">=":
		return v >= b.Value
	case ">":
		return v > b.Value
	case "==":
		return v == b.Value
	case "!=":
		return v != b.Value
	}
	return false
}

// IsDuration reports whether the budget's value was written as a duration
// ("3s"), so Value is in milliseconds.
func (b Budget) IsDuration() bool { return strings.IndexFunc(b.Raw, unicode.IsLetter) >= 0 }

// outcomes are the outcomes of a turn (docs/reports.md), as ledger.Outcome spells
// them.
var outcomes = []string{"success", "truncated", "failed", "aborted", "cancelled"}

// OutcomeMatch is the outcome field of an expect block: "success",
// "== success" or "!= failed".
type OutcomeMatch struct {
	Op      string // == or !=
	Outcome string // success, truncated, failed, aborted or cancelled
}

// ParseOutcome parses an expect block's outcome: one of success,
// truncated, failed, aborted, cancelled, optionally after == or !=.
func ParseOutcome(s string) (OutcomeMatch, error) {
	raw := strings.TrimSpace(s)
	m := OutcomeMatch{Op: "=="}
	rest := raw
	for _, op := range []string{"==", "!="} {
		if after, ok := strings.CutPrefix(raw, op); ok {
			m.Op, rest = op, strings.TrimSpace(after)
			break
		}
	}
	for _, o := range outcomes {
		if rest == o {
			m.Outcome = o
			return m, nil
		}
	}
	return OutcomeMatch{}, fmt.Errorf("outcome %s: want one of %s, optionally after == or !=", quote(raw), strings.Join(outcomes, ", "))
}

// Holds reports whether outcome satisfies the match.
func (m OutcomeMatch) Holds(outcome string) bool {
	if m.Op == "!=" {
		return outcome != m.Outcome
	}
	return outcome == m.Outcome
}

// NamedBudget is one budget of an expect block and the field it limits,
// named as in the file: attempts, wait (milliseconds, to compare with
// ledger.Result.WaitMS), submitted_input_tokens, repair_input_tokens,
// repair_calls, fallbacks, escalations, compactions, steps, for a
// workload makespan and p99 (milliseconds) and wasted_input_tokens, and
// the cost's billed_usd, cache_hit_ratio, cache_read_tokens and
// cache_write_tokens (docs/cost.md).
type NamedBudget struct {
	Field string
	Budget
}

// Budgets parses every budget e sets, in the order of the fields of
// Expect; outcome is apart (ParseOutcome). A loaded scenario's budgets
// always parse.
func (e Expect) Budgets() ([]NamedBudget, error) {
	var out []NamedBudget
	var errs []error
	for _, f := range e.fields() {
		if f.value == "" {
			continue
		}
		b, err := ParseBudget(f.value)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.name, err))
			continue
		}
		out = append(out, NamedBudget{Field: f.name, Budget: b})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// expectField is one budget field of an Expect.
type expectField struct {
	name     string // as in the file
	value    string
	duration bool // the value is a time and needs a unit
	workload bool // a workload's figure: refused on a scenario without one
	priced   bool // a price's figure: refused on a scenario without prices
}

func (e Expect) fields() []expectField {
	return []expectField{
		{"attempts", e.Attempts, false, false, false},
		{"wait", e.Wait, true, false, false},
		{"submitted_input_tokens", e.SubmittedInputTokens, false, false, false},
		{"repair_input_tokens", e.RepairInputTokens, false, false, false},
		{"repair_calls", e.RepairCalls, false, false, false},
		{"fallbacks", e.Fallbacks, false, false, false},
		{"escalations", e.Escalations, false, false, false},
		{"compactions", e.Compactions, false, false, false},
		{"steps", e.Steps, false, false, false},
		{"makespan", e.Makespan, true, true, false},
		{"p99", e.P99, true, true, false},
		{"wasted_input_tokens", e.WastedInputTokens, false, true, false},
		{"billed_usd", e.BilledUSD, false, false, true},
		{"cache_hit_ratio", e.CacheHitRatio, false, false, true},
		{"cache_read_tokens", e.CacheReadTokens, false, false, false},
		{"cache_write_tokens", e.CacheWriteTokens, false, false, false},
	}
}
