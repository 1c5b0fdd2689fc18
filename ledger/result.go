package ledger

// Outcome is how a turn ended, judged by the harness (docs/reports.md).
type Outcome string

// The outcomes of a turn.
const (
	OutcomeSuccess   Outcome = "success"   // a complete answer
	OutcomeTruncated Outcome = "truncated" // HTTP 200 cut at max_tokens, handed back as done
	OutcomeFailed    Outcome = "failed"    // an error reached the caller
	OutcomeAborted   Outcome = "aborted"   // a loop guard or step cap stopped the turn
	OutcomeCancelled Outcome = "cancelled" // the caller's context ended
)

// Attempt is one request in the record: a turn attempt or a repair call.
type Attempt struct {
	N            int    `json:"n"`
	Purpose      string `json:"purpose"`
	Model        string `json:"model"`
	MaxTokens    int    `json:"max_tokens"`
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
	Status       int    `json:"status"`
	Kind         string `json:"kind"`
	WaitBeforeMS int64  `json:"wait_before_ms"`
	AtMS         int64  `json:"at_ms"` // virtual time since the run began when its result came back (a hung attempt: when it ended)
	// Turn is the workload turn, from 1, that sent it; 0 (left out)
	// outside a workload.
	Turn int `json:"turn,omitempty"`
	// DurationMS is, in a workload, how long the request was in flight:
	// from its send to AtMS, when its result came back. 0 (left out) when
	// it took no virtual time, and outside a workload.
	DurationMS int64 `json:"duration_ms,omitempty"`
	// CacheReadTokens and CacheWriteTokens are the input its answer read
	// from the prompt cache and wrote to it; BilledUSD what it cost at
	// its model's price (cost.go). All are left out when zero.
	CacheReadTokens  int     `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int     `json:"cache_write_tokens,omitempty"`
	BilledUSD        float64 `json:"billed_usd,omitempty"`
}

// Result is what one scenario × strategy run cost. Its JSON is the stable
// machine contract of docs/reports.md.
type Result struct {
	Scenario    string  `json:"scenario"`
	Strategy    string  `json:"strategy"`
	Outcome     Outcome `json:"outcome"`
	Reason      string  `json:"reason,omitempty"` // why it ended so, for failed and truncated
	Attempts    int     `json:"attempts"`
	RepairCalls int     `json:"repair_calls"`
	WaitMS      int64   `json:"wait_ms"`
	// HoldMS is the virtual time the strategy's cross-turn policies (its
	// rate limiter, its adaptive limiter) held requests back before they
	// were sent: not a retry's wait, so not in WaitMS.
	HoldMS               int64 `json:"hold_ms"`
	SubmittedInputTokens int   `json:"submitted_input_tokens"`
	RepairInputTokens    int   `json:"repair_input_tokens"`
	OutputTokens         int   `json:"output_tokens"`
	Fallbacks            int   `json:"fallbacks"`
	Compactions          int   `json:"compactions"`
	Escalations          int   `json:"escalations"`
	Adjustments          int   `json:"adjustments"`
	Steps                int   `json:"steps"`
	// LoopWarnings counts the loop guard's warnings injected in an agent
	// turn; LoopDetector names what stopped it (repeat, ping_pong,
	// no_progress, step_cap). Both are left out when zero.
	LoopWarnings int       `json:"loop_warnings,omitempty"`
	LoopDetector string    `json:"loop_detector,omitempty"`
	AttemptsLog  []Attempt `json:"attempts_log"`
	RepairLog    []Attempt `json:"repair_log"`
	// Workload sums a fleet's turns (workload.go); nil for a lone turn.
	Workload *Workload `json:"workload,omitempty"`
	// Cost is the billed figures (cost.go): set when the scenario's
	// models have prices or the prompt cache was read or written, else
	// left out.
	Cost *Cost `json:"cost,omitempty"`

	// Regret is the run's cost over its scenario's hindsight cost
	// (docs/explore.md), set by `faultbench run --hindsight` on the plain
	// turns; Plan is hindsight's own row's plan. Both are left out when
	// zero.
	Regret float64 `json:"regret,omitempty"`
	Plan   string  `json:"plan,omitempty"`
}

// Exposure is the input tokens submitted in all: attempts and repair calls.
func (r Result) Exposure() int { return r.SubmittedInputTokens + r.RepairInputTokens }

// Report is a whole run: `{"seed": N, "results": [...]}`.
type Report struct {
	Seed uint64 `json:"seed"`
	// Stopped, when set, says the run ended before its grid was whole
	// (Ctrl-C, SIGTERM, --timeout): Results holds only the runs that
	// finished. The JSON then says "complete": false.
	Stopped *Stop    `json:"stopped,omitempty"`
	Results []Result `json:"results"`
}

// Stop is what ended a run early, and how much of it had finished.
type Stop struct {
	// Cause is what stopped it: "interrupted" (SIGINT), "terminated"
	// (SIGTERM), "--timeout reached (30m0s)".
	Cause string `json:"cause"`
	// Finished is the runs that finished, the ones reported; Runs the runs
	// of the whole grid.
	Finished int `json:"finished"`
	Runs     int `json:"runs"`
}
