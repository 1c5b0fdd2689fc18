package recovery

import "time"

// Strategy is a recovery policy as plain data: many runs share one value,
// and every per-run counter lives in the run, not here. The zero value of
// each field is documented where it is declared.
type Strategy struct {
	Name string

	// Classify makes the engine read each failure (SPEC §4) and act on its
	// kind. Without it, every failure is retried alike and any HTTP 200 is
	// taken as done: the naive loop.
	Classify bool

	// Attempts per step counts the first try; 0 means 5. A step is one shape
	// of the request: a fallback, an escalation, an adjustment or a
	// compaction starts a new step with a fresh count.
	Attempts int

	// Backoff computes the wait between attempts.
	Backoff Backoff

	// HonorRetryAfter waits what the server asks (retry-after-ms,
	// retry-after) instead of the backoff delay. Classify only.
	HonorRetryAfter bool
	// RetryAfterCap bounds a server-requested wait; 0 means no bound.
	RetryAfterCap time.Duration
	// GiveUpAboveCap stops the turn when the server asks for more than
	// RetryAfterCap; false waits the cap instead.
	GiveUpAboveCap bool

	// SleepAfterFinal sleeps the backoff delay even after the last attempt
	// has failed: the naive bug, kept so that blind can show what it costs.
	SleepAfterFinal bool

	// FallbackAfter is how many consecutive overloads make the engine switch
	// to the next fallback model, at once and without a wait; 0 never
	// switches on overloads. not_found always moves to the next model when
	// Classify is on and one is left.
	FallbackAfter int

	// EscalationFactor multiplies max_tokens when an answer comes back
	// truncated; 0 or 1 turns escalation off. The new value is bounded by
	// the model's output limit and by the window less the input.
	EscalationFactor float64
	// MaxEscalations bounds escalations per turn; 0 means 3.
	MaxEscalations int

	// Adjust lowers max_tokens after a context overflow whose input alone
	// fits: max_tokens = window − input − AdjustBuffer, never below
	// AdjustFloor (when even the floor does not fit, the engine compacts).
	Adjust bool
	// AdjustBuffer is the safety margin of an adjustment; 0 means 1,000.
	AdjustBuffer int
	// AdjustFloor is the least output budget an adjustment leaves; 0 means 3,000.
	AdjustFloor int

	// Compact summarises older messages through a repair call when the
	// input itself does not fit the window.
	Compact bool
	// KeepRecent is how many of the most recent messages a compaction keeps
	// as they are; 0 means 6.
	KeepRecent int
	// MaxCompactions per turn; 0 means 3. Past it the turn fails.
	MaxCompactions int
	// SummaryMaxTokens is the output budget of the summarisation call; 0
	// means 4,096.
	SummaryMaxTokens int

	// WaitBudget bounds the total time a turn may spend waiting; 0 means no
	// bound. A wait that would break it ends the turn instead.
	WaitBudget time.Duration
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

func (s Strategy) attempts() int         { return orDefault(s.Attempts, 5) }
func (s Strategy) maxEscalations() int   { return orDefault(s.MaxEscalations, 3) }
func (s Strategy) adjustBuffer() int     { return orDefault(s.AdjustBuffer, 1000) }
func (s Strategy) adjustFloor() int      { return orDefault(s.AdjustFloor, 3000) }
func (s Strategy) keepRecent() int       { return orDefault(s.KeepRecent, 6) }
func (s Strategy) maxCompactions() int   { return orDefault(s.MaxCompactions, 3) }
func (s Strategy) summaryMaxTokens() int { return orDefault(s.SummaryMaxTokens, 4096) }

// Blind is the naive loop (SPEC §5): every failure alike, the same request
// resent, base·2^i after each failed attempt including the last, 1 s base,
// 5 attempts, no jitter, no cap, any HTTP 200 taken as done.
func Blind() Strategy {
	return Strategy{
		Name:            "blind",
		Attempts:        5,
		Backoff:         Backoff{Base: time.Second, Factor: 2, Jitter: JitterNone},
		SleepAfterFinal: true,
	}
}

// Classifying is classify-then-retry (SPEC §4, §5), deterministic: 1 s base
// doubling, no jitter, 5 attempts per step, retry-after honoured (capped at
// 60 s, waiting the cap above it), fallback after 3 consecutive overloads
// with no wait before the switch, max_tokens ×2 escalation, adjustment with
// a 1,000 buffer and a 3,000 floor, compaction keeping the 6 most recent
// messages, at most 3 compactions.
func Classifying() Strategy {
	return Strategy{
		Name:             "classify",
		Classify:         true,
		Attempts:         5,
		Backoff:          Backoff{Base: time.Second, Factor: 2, Jitter: JitterNone},
		HonorRetryAfter:  true,
		RetryAfterCap:    60 * time.Second,
		FallbackAfter:    3,
		EscalationFactor: 2,
		MaxEscalations:   3,
		Adjust:           true,
		AdjustBuffer:     1000,
		AdjustFloor:      3000,
		Compact:          true,
		KeepRecent:       6,
		MaxCompactions:   3,
		SummaryMaxTokens: 4096,
	}
}

// Presets returns the built-in strategies in their documented order.
func Presets() []Strategy { return []Strategy{Blind(), Classifying()} }

// Preset returns the built-in strategy called name.
func Preset(name string) (Strategy, bool) {
	for _, s := range Presets() {
		if s.Name == name {
			return s, true
		}
	}
	return Strategy{}, false
}
