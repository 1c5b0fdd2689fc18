package ledger

import (
	"errors"
	"fmt"
)

// Served is one request as the server's journal recorded it.
type Served struct {
	N           int
	Purpose     string
	Model       string
	MaxTokens   int
	InputTokens int
	Status      int
}

// ErrMismatch is matched by every error Reconcile returns.
var ErrMismatch = errors.New("ledger and journal disagree")

// Reconcile checks that the engine's record and the server's journal agree
// request for request: the same number of requests, and for each, in
// order, the same purpose, model, max_tokens, input tokens and status.
// Attempts and repair calls are interleaved in the journal; they are
// matched in the order each was sent. The record's totals (attempts,
// repair calls, submitted and repair input tokens) are checked against
// sums of the journal alone, not of the record's own log, so that a total
// counted wrong cannot agree with itself.
func Reconcile(res Result, journal []Served) error {
	var turns, repairs []Served
	for _, s := range journal {
		if s.Purpose == "repair" {
			repairs = append(repairs, s)
		} else {
			turns = append(turns, s)
		}
	}
	for _, c := range []struct {
		what           string
		recorded, seen int
	}{
		{"attempts", res.Attempts, len(turns)},
		{"repair calls", res.RepairCalls, len(repairs)},
		{"submitted input tokens", res.SubmittedInputTokens, inputOf(turns)},
		{"repair input tokens", res.RepairInputTokens, inputOf(repairs)},
	} {
		if c.recorded != c.seen {
			return fmt.Errorf("%s × %s: %w: %d %s recorded, the server saw %d", res.Scenario, res.Strategy, ErrMismatch, c.recorded, c.what, c.seen)
		}
	}
	if err := match("attempt", res.AttemptsLog, turns); err != nil {
		return fmt.Errorf("%s × %s: %w", res.Scenario, res.Strategy, err)
	}
	if err := match("repair call", res.RepairLog, repairs); err != nil {
		return fmt.Errorf("%s × %s: %w", res.Scenario, res.Strategy, err)
	}
	return nil
}

func match(what string, log []Attempt, served []Served) error {
	if len(log) != len(served) {
		return fmt.Errorf("%w: %d %ss recorded, %d served", ErrMismatch, len(log), what, len(served))
	}
	for i, a := range log {
		s := served[i]
		if a.Model != s.Model || a.MaxTokens != s.MaxTokens || a.InputTokens != s.InputTokens || a.Status != s.Status {
			return fmt.Errorf("%w: %s %d: recorded model=%s max_tokens=%d input=%d status=%d, served model=%s max_tokens=%d input=%d status=%d",
				ErrMismatch, what, i+1, a.Model, a.MaxTokens, a.InputTokens, a.Status, s.Model, s.MaxTokens, s.InputTokens, s.Status)
		}
	}
	return nil
}

// inputOf adds up the input tokens the server counted.
func inputOf(served []Served) int {
	n := 0
	for _, s := range served {
		n += s.InputTokens
	}
	return n
}
