package recovery

import (
	"slices"
	"time"
)

// Strategy is a recovery policy as plain data: many runs share one value,
// and every per-run counter lives in the run, not here. It is a tree of
// small policy values in the shape of a strategy file (docs/strategies.md):
// each block (Backoff, Rounds, RetryAfter, Fallback, Escalation, Adjust,
// Compaction, LoopGuard and the cross-turn policies) is a type that
// documents its own defaults. The zero value of each field is documented
// where it is declared; Effective resolves them all at once. The presets
// (presets.go) set every field they rely on. recovery/strategyfile reads
// strategies from YAML onto this type.
type Strategy struct {
	Name string `yaml:"name"`
	// Description says in a sentence what the policy is and where it comes
	// from; `faultbench strategies` prints it.
	Description string `yaml:"description,omitempty"`

	// Classify makes the engine read each failure (docs/classification.md) and act on its
	// kind. Without it, every failure is retried alike and any HTTP 200 is
	// taken as done: the naive loop. Every field below that says "classify
	// only" is ignored without it.
	Classify bool `yaml:"classify"`

	// Attempts per step counts the first try; 0 means 5. A step is one shape
	// of the request: a fallback, an escalation, an adjustment, a
	// compaction or a credential refresh starts a new step with a fresh
	// count.
	Attempts int `yaml:"attempts"`
	// TurnAttempts bounds the attempts of a whole turn, across steps; 0
	// means no bound beyond the per-step one (1,000 in persistent mode,
	// where a server that asks for no wait at all could otherwise keep a
	// turn going for ever). Classify only.
	TurnAttempts int `yaml:"turn_attempts"`

	// Backoff computes the wait between attempts.
	Backoff Backoff `yaml:"backoff"`

	// Rounds wraps a step's attempts in an outer loop (Rounds.Max).
	Rounds Rounds `yaml:"rounds"`

	// SleepAfterFinal sleeps the backoff delay even after the last attempt
	// has failed: the naive bug, kept so that blind can show what it costs.
	// A classifying strategy with it sleeps when a step's attempts run out,
	// before it stops.
	SleepAfterFinal bool `yaml:"sleep_after_final"`

	// Retry lists the kinds a classifying strategy waits and resends on; nil
	// means the kinds docs/classification.md calls transient: rate_limit, overloaded,
	// server, timeout, conflict, connection, empty_response and unknown.
	Retry []Kind `yaml:"retry,flow"`
	// RetryStatuses, when not empty, narrows Retry for failures that came
	// with an error status: such a failure is resent only if its status is
	// listed too (Kimi Code's list, the SDKs' 408/409/429/5xx). Transport
	// errors and answers are not affected.
	RetryStatuses []int `yaml:"retry_statuses,flow"`
	// ShouldRetry says how the x-should-retry response header is read; ""
	// means ShouldRetryHonor. Classify only.
	ShouldRetry ShouldRetryMode `yaml:"should_retry"`
	// ShouldRetryPermanent lets x-should-retry: true resend a permanent
	// failure too (401, 403, 404, a quota 429, a rejected request), as the
	// official SDKs and Claude Code do: they read the header before the
	// status. false, the default, lets the header resend only a failure
	// that is not permanent; a permanent one stops whatever the header
	// says. Classify only.
	ShouldRetryPermanent bool `yaml:"should_retry_permanent"`
	// GiveUpMidStream ends the turn on a failure that came after a
	// streamed answer's status did (Failure.MidStream: the stream cut, an
	// SSE error event, a stall), as the official SDKs do: they retry a
	// stream only until it begins. false, the default, resends it as its
	// kind says. Classify only.
	GiveUpMidStream bool `yaml:"give_up_mid_stream"`

	// RetryAfter says which waits the server asks for are taken, and how
	// far. Classify only.
	RetryAfter ServerWait `yaml:"retry_after"`

	// WaitBudget bounds the total time a turn may spend waiting; 0 means no
	// bound (6 h in persistent mode). A wait that would break it ends the
	// turn instead.
	WaitBudget time.Duration `yaml:"wait_budget"`
	// Persistent is Claude Code's unattended mode: rate limits and overloads
	// are retried past Attempts, for as long as WaitBudget lasts, with the
	// backoff capped at PersistentCap. Classify only.
	Persistent bool `yaml:"persistent"`
	// PersistentCap caps the backoff delay in persistent mode; 0 means 5 min.
	PersistentCap time.Duration `yaml:"persistent_cap"`
	// Heartbeat splits a wait longer than it into chunks of at most this
	// long, with an EventHeartbeat before each, so that a caller can show
	// progress (Claude Code: 30 s); 0 means one sleep per wait.
	Heartbeat time.Duration `yaml:"heartbeat"`

	// Fallback says when the turn moves to the next fallback model.
	// Classify only.
	Fallback Fallback `yaml:"fallback"`

	// Auth says what a 401 does; "" means AuthStop. Classify only.
	Auth AuthMode `yaml:"auth"`
	// ShedBackground gives up at once when a request marked Background meets
	// an overload, without retry or fallback: Claude Code's load shedding.
	// Classify only.
	ShedBackground bool `yaml:"shed_background"`

	// Escalation raises max_tokens when an answer comes back truncated.
	Escalation Escalation `yaml:"escalation"`
	// Adjust lowers max_tokens after a context overflow whose input alone
	// fits.
	Adjust Adjust `yaml:"adjust"`
	// ClampMaxTokens resends at once, with max_tokens lowered to the
	// model's maximum, a 400 that says max_tokens is above it ("max_tokens:
	// 128000 > 64000, which is the maximum allowed number of output tokens
	// for …"; OpenAI: "… supports at most 16384 completion tokens"), as
	// Claude Code does. The resend is one more attempt of the step. Classify
	// only.
	ClampMaxTokens bool `yaml:"clamp_max_tokens"`
	// Compaction summarises older messages when the input itself does not
	// fit the window, and says how the window is learnt from overflows.
	Compaction Compaction `yaml:"compaction"`

	// Preflight counts each request's tokens before sending it and, when it
	// cannot fit the model's known window or output limit, shrinks it first
	// (adjusting max_tokens or compacting), so that a doomed request is
	// never sent. It needs the model's limits (WithLimits). Classify only.
	Preflight bool `yaml:"preflight"`

	// LoopGuard watches the tool calls of an agent turn (RunAgent).
	LoopGuard LoopGuard `yaml:"loop_guard"`
	// StepCap is the most model steps (answers) an agent turn may take, a
	// hard stop that needs no judgement: the turn is aborted when the
	// model still asks for tools at the cap. 0 means DefaultStepCap.
	StepCap int `yaml:"step_cap"`

	// The cross-turn policies: their state is the Engine's, shared by
	// every turn it runs (policies.go). Each is off unless Enabled.

	// RateLimiter holds a request until the model's rate-limit buckets,
	// as the answers' headers describe them, can admit it.
	RateLimiter RateLimiter `yaml:"rate_limiter"`
	// RetryBudget bounds all turns' retries to a share of their requests
	// plus a floor; beyond it a retryable failure gives up at once.
	RetryBudget RetryBudget `yaml:"retry_budget"`
	// CircuitBreaker stops sending to a model after consecutive overloads,
	// and lets one probe through after a delay.
	CircuitBreaker CircuitBreaker `yaml:"circuit_breaker"`
	// AdaptiveLimiter bounds the requests in flight with a limit cut on
	// 429 and 529 and grown on success (AIMD).
	AdaptiveLimiter AdaptiveLimiter `yaml:"adaptive_limiter"`

	// PromptCache is how the strategy marks its prompt for the
	// provider's prompt cache (cache.go); the zero value marks nothing.
	PromptCache PromptCache `yaml:"prompt_cache"`
}

// DefaultStepCap is the step cap of a strategy that sets none: the
// harness's own bound on an agent turn.
const DefaultStepCap = 30

// ShouldRetryMode says how a strategy reads x-should-retry.
type ShouldRetryMode string

// The ways of reading x-should-retry.
const (
	// ShouldRetryHonor: "true" allows resending a failure that is not
	// permanent (or any failure, with ShouldRetryPermanent); "false" forbids resending the same
	// request (a repair or a fallback, which change it, stays allowed).
	ShouldRetryHonor ShouldRetryMode = "honor"
	// ShouldRetryIgnore: the header is not read.
	ShouldRetryIgnore ShouldRetryMode = "ignore"
	// ShouldRetryHonorExceptOverloaded: as honor, but an overload is
	// retried whatever the header says, as Claude Code checks for
	// overloaded_error before it reads the header.
	ShouldRetryHonorExceptOverloaded ShouldRetryMode = "honor-except-overloaded"
)

// transientKinds are the kinds docs/classification.md retries by default.
var transientKinds = []Kind{
	KindRateLimit, KindOverloaded, KindServer, KindTimeout, KindConflict,
	KindConnection, KindEmptyResponse, KindUnknown,
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// retries reports whether the strategy resends a failure of kind k that
// came with status (0 for none).
func (s Strategy) retries(k Kind, status int) bool {
	if !slices.Contains(s.Retry, k) {
		return false
	}
	if len(s.RetryStatuses) > 0 && status >= 400 {
		return slices.Contains(s.RetryStatuses, status)
	}
	return true
}

// roundRetries reports whether a failure of kind k ends the step into a
// new round (Rounds).
func (s Strategy) roundRetries(k Kind) bool {
	if s.Rounds.Max <= 0 {
		return false
	}
	return slices.Contains(s.Rounds.Retry, k)
}

// persistentKind reports whether persistent mode retries k past Attempts.
func (s Strategy) persistentKind(k Kind) bool {
	return s.Persistent && (k == KindRateLimit || k == KindOverloaded)
}

// Clone returns a copy of s whose slices can be changed without touching s's.
func (s Strategy) Clone() Strategy {
	s.Retry = slices.Clone(s.Retry)
	s.RetryStatuses = slices.Clone(s.RetryStatuses)
	s.Fallback.On = slices.Clone(s.Fallback.On)
	s.Rounds.Retry = slices.Clone(s.Rounds.Retry)
	s.PromptCache.Breakpoints = slices.Clone(s.PromptCache.Breakpoints)
	return s
}

// TransientKinds returns the kinds a classifying strategy retries when its
// Retry list is nil (docs/classification.md).
func TransientKinds() []Kind { return slices.Clone(transientKinds) }
