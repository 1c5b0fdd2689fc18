package recovery

import (
	"slices"
	"time"

	"github.com/faultbench/faultbench/recovery/loopguard"
)

// Strategy is a recovery policy as plain data: many runs share one value,
// and every per-run counter lives in the run, not here. The zero value of
// each field is documented where it is declared; the presets (presets.go)
// set every field they rely on. recovery/strategyfile reads and writes
// strategies as YAML.
type Strategy struct {
	Name string
	// Description says in a sentence what the policy is and where it comes
	// from; `faultbench strategies` prints it.
	Description string

	// Classify makes the engine read each failure (docs/classification.md) and act on its
	// kind. Without it, every failure is retried alike and any HTTP 200 is
	// taken as done: the naive loop. Every field below that says "classify
	// only" is ignored without it.
	Classify bool

	// Attempts per step counts the first try; 0 means 5. A step is one shape
	// of the request: a fallback, an escalation, an adjustment, a
	// compaction or a credential refresh starts a new step with a fresh
	// count.
	Attempts int
	// TurnAttempts bounds the attempts of a whole turn, across steps; 0
	// means no bound beyond the per-step one (1,000 in persistent mode,
	// where a server that asks for no wait at all could otherwise keep a
	// turn going for ever). Classify only.
	TurnAttempts int

	// Backoff computes the wait between attempts.
	Backoff Backoff

	// Rounds wraps a step's attempts in an outer loop, as Codex's turn loop
	// (stream_max_retries) wraps its HTTP retries (request_max_retries):
	// when a step ends on a failure of a kind RoundRetry lists — its
	// attempts used up, a failure the step does not resend, or a stream
	// that failed after it began under GiveUpMidStream — the engine waits
	// RoundBackoff and starts the step again with a fresh count, at most
	// Rounds more times. 0: no outer loop. Classify only.
	Rounds int
	// RoundRetry lists the kinds that start a new round; nil means the
	// kinds Retry lists.
	RoundRetry []Kind
	// RoundBackoff computes the wait before round i+1 (0 for the first
	// new round).
	RoundBackoff Backoff

	// SleepAfterFinal sleeps the backoff delay even after the last attempt
	// has failed: the naive bug, kept so that blind can show what it costs.
	// A classifying strategy with it sleeps when a step's attempts run out,
	// before it stops.
	SleepAfterFinal bool

	// Retry lists the kinds a classifying strategy waits and resends on; nil
	// means the kinds docs/classification.md calls transient: rate_limit, overloaded,
	// server, timeout, conflict, connection, empty_response and unknown.
	Retry []Kind
	// RetryStatuses, when not empty, narrows Retry for failures that came
	// with an error status: such a failure is resent only if its status is
	// listed too (Kimi Code's list, the SDKs' 408/409/429/5xx). Transport
	// errors and answers are not affected.
	RetryStatuses []int
	// ShouldRetry says how the x-should-retry response header is read; ""
	// means ShouldRetryHonor. Classify only.
	ShouldRetry ShouldRetryMode
	// ShouldRetryPermanent lets x-should-retry: true resend a permanent
	// failure too (401, 403, 404, a quota 429, a rejected request), as the
	// official SDKs and Claude Code do: they read the header before the
	// status. false, the default, lets the header resend only a failure
	// that is not permanent; a permanent one stops whatever the header
	// says. Classify only.
	ShouldRetryPermanent bool
	// GiveUpMidStream ends the turn on a failure that came after a
	// streamed answer's status did (Failure.MidStream: the stream cut, an
	// SSE error event, a stall), as the official SDKs do: they retry a
	// stream only until it begins. false, the default, resends it as its
	// kind says. Classify only.
	GiveUpMidStream bool

	// HonorRetryAfter waits what the server asks (retry-after-ms, then
	// retry-after as seconds or an HTTP date) instead of the backoff delay.
	// Classify only.
	HonorRetryAfter bool
	// RetryAfterSecondsOnly reads only retry-after, and only as a whole
	// number of seconds (RetryAfterSeconds: Claude Code's parseInt): no
	// retry-after-ms, and an HTTP date falls back to the backoff.
	RetryAfterSecondsOnly bool
	// HonorRateLimitReset, when the server sent no retry-after, waits until
	// the rate-limit window resets as the Anthropic
	// anthropic-ratelimit-*-reset (RFC 3339) or OpenAI x-ratelimit-reset-*
	// (duration) headers say. Classify only.
	HonorRateLimitReset bool
	// RetryAfterCap bounds a server-requested wait (retry-after or reset); 0
	// means no bound.
	RetryAfterCap time.Duration
	// GiveUpAboveCap stops the turn when the server asks for more than
	// RetryAfterCap; false waits the cap instead.
	GiveUpAboveCap bool
	// BackoffAboveCap replaces a server wait of RetryAfterCap or more with
	// the backoff delay, when that is shorter (the Vercel AI SDK uses a
	// retry-after only below 60 s). GiveUpAboveCap wins when both are set.
	BackoffAboveCap bool
	// FallbackAboveCap, with GiveUpAboveCap, moves the turn to the next
	// fallback model (a new step) when the server asks for more than
	// RetryAfterCap, and stops only when no model is left: Gemini CLI
	// takes a retry delay over 300 s as a terminal quota and falls back.
	// Classify only.
	FallbackAboveCap bool
	// HonorRetryInfo waits the delay the error body asks for
	// (Failure.RetryDelay: Google's google.rpc.RetryInfo retryDelay) when
	// no retry-after header gave one. A client that reads only headers
	// leaves it false and backs off as if the server had said nothing.
	// RetryAfterCap bounds it too. Classify only.
	HonorRetryInfo bool
	// ServerWaitJitter adds 0 to this share of a server-requested wait
	// (retry-after, a reset, RetryInfo) to it, drawn from the engine's
	// random source, so that callers told the same wait do not come back
	// at the same instant (Gemini CLI: 0.2); 0 waits it exactly. Classify
	// only.
	ServerWaitJitter float64
	// RaiseBackoff keeps the backoff as a running delay, as Gemini CLI's
	// retryWithBackoff keeps currentDelay: it starts at Backoff.Base, and
	// after each wait becomes Factor times itself, capped at Backoff.Cap;
	// a server-requested wait longer than it replaces it first (the wait
	// is then the larger of the two, and the next backoff doubles from
	// it). A new step starts it again at Base. false computes each delay
	// from the attempt number alone. Classify only.
	RaiseBackoff bool

	// WaitBudget bounds the total time a turn may spend waiting; 0 means no
	// bound (6 h in persistent mode). A wait that would break it ends the
	// turn instead.
	WaitBudget time.Duration
	// Persistent is Claude Code's unattended mode: rate limits and overloads
	// are retried past Attempts, for as long as WaitBudget lasts, with the
	// backoff capped at PersistentCap. Classify only.
	Persistent bool
	// PersistentCap caps the backoff delay in persistent mode; 0 means 5 min.
	PersistentCap time.Duration
	// Heartbeat splits a wait longer than it into chunks of at most this
	// long, with an EventHeartbeat before each, so that a caller can show
	// progress (Claude Code: 30 s); 0 means one sleep per wait.
	Heartbeat time.Duration

	// FallbackAfter is how many consecutive overloads make the engine switch
	// to the next fallback model, at once and without a wait; 0 never
	// switches on overloads. Classify only.
	FallbackAfter int
	// FallbackOn lists the kinds that move the turn to the next fallback
	// model at once (classify: not_found; s11: every permanent error); when
	// no model is left the turn stops. nil switches on none. Classify only.
	FallbackOn []Kind
	// FallbackOnExhausted moves to the next fallback model, instead of
	// stopping, when a step's attempts run out (s11). Classify only.
	FallbackOnExhausted bool

	// RefreshAuth calls the engine's refresh hook (WithAuthRefresh) once per
	// turn on a 401, then resends with a fresh count of attempts; a second
	// 401 stops. Without a hook a 401 stops at once. Classify only.
	RefreshAuth bool
	// AuthWithinAttempts resends a 401 as any retryable failure: within the
	// step's attempts, after the backoff, with the refresh hook (when there
	// is one) called before every resend and no limit of one (Claude Code
	// clears its cached credential before each retry). RefreshAuth's
	// once-per-turn refresh and fresh step are then not used; x-should-retry
	// still applies. Classify only.
	AuthWithinAttempts bool
	// ShedBackground gives up at once when a request marked Background meets
	// an overload, without retry or fallback: Claude Code's load shedding.
	// Classify only.
	ShedBackground bool

	// EscalationFactor multiplies max_tokens when an answer comes back
	// truncated; 0 or 1 turns escalation off. The new value is bounded by
	// the model's output limit and by the window less the input.
	EscalationFactor float64
	// MaxEscalations bounds escalations per turn; 0 means 3.
	MaxEscalations int
	// EscalationUnclamped bounds an escalation by EscalationCeiling alone,
	// not by the model's output limit or window: the oversize request is
	// sent and its error handled as any other (s11).
	EscalationUnclamped bool
	// EscalateWithinStep makes an escalation one more attempt of the step
	// (its count is not reset), and a failed escalated call goes back to
	// the max_tokens it had before (s11).
	EscalateWithinStep bool
	// EscalationCeiling, when not 0, is a hard ceiling: an escalation that
	// would go above it is not made, and the truncated answer is handed
	// back (s11's 32,768).
	EscalationCeiling int

	// Adjust lowers max_tokens after a context overflow whose input alone
	// fits: max_tokens = window − input − AdjustBuffer, never below
	// AdjustFloor (when even the floor does not fit, the engine compacts).
	Adjust bool
	// AdjustBuffer is the safety margin of an adjustment; 0 means 1,000.
	AdjustBuffer int
	// AdjustFloor is the least output budget an adjustment leaves; 0 means 3,000.
	AdjustFloor int
	// ClampMaxTokens resends at once, with max_tokens lowered to the
	// model's maximum, a 400 that says max_tokens is above it ("max_tokens:
	// 128000 > 64000, which is the maximum allowed number of output tokens
	// for …"; OpenAI: "… supports at most 16384 completion tokens"), as
	// Claude Code does. The resend is one more attempt of the step. Classify
	// only.
	ClampMaxTokens bool

	// AdjustWithinStep makes an adjustment one more attempt of the step
	// instead of a new step, and makes an overflow met when the step's
	// attempts are used up stop the turn (Claude Code checks "too many
	// retries?" before it adjusts).
	AdjustWithinStep bool

	// Compact summarises older messages through a repair call when the
	// input itself does not fit the window.
	Compact bool
	// KeepRecent is how many of the most recent messages a compaction keeps
	// as they are; 0 means 6.
	KeepRecent int
	// MaxCompactions per turn; 0 means 3. Past it the turn fails with
	// ErrCompactionLimit.
	MaxCompactions int
	// SummaryMaxTokens is the output budget of the summarisation call; 0
	// means 4,096.
	SummaryMaxTokens int
	// LearnedWindowRatio: after an overflow whose message gives no window,
	// and that the declared window cannot explain, the engine takes the
	// window to be this share of the input it counted, and plans every later
	// request of the turn against it (Kimi Code); 0 means 0.85.
	LearnedWindowRatio float64
	// LearnFromEstimate learns, on every overflow, LearnedWindowRatio × the
	// input the engine counted, whatever window the message gives (Kimi
	// Code records 0.85 × its estimate as the model's window each time);
	// false prefers the window the message states.
	LearnFromEstimate bool
	// TooLargeAsOverflow, when not 0, handles a 413 request_too_large as a
	// context overflow if the request's input is at least this share of the
	// known window (Kimi Code: 0.5).
	TooLargeAsOverflow float64

	// Preflight counts each request's tokens before sending it and, when it
	// cannot fit the model's known window or output limit, shrinks it first
	// (adjusting max_tokens or compacting), so that a doomed request is
	// never sent. It needs the model's limits (WithLimits). Classify only.
	Preflight bool

	// Guard watches the tool calls of an agent turn (RunAgent) with a
	// loop guard: each call's fingerprint (tool name and a hash of its
	// arguments as canonical JSON) and result go into a sliding window, and
	// the three detectors (repeat, ping_pong, no_progress) first warn — the
	// model is told, in the next user message, that it is repeating itself
	// — then break, stopping the turn as aborted; a detector whose break
	// threshold equals its warn threshold breaks at once, with no warning
	// (loopguard.Config.AtOnce). Without it only StepCap stops a looping
	// model.
	Guard bool
	// LoopGuard holds the guard's thresholds; a zero field takes the
	// default loopguard.Config documents: a window of 20 calls, repeat
	// warn 3 / break 5, ping_pong 3 / 5 cycles, no_progress 2 / 3.
	LoopGuard loopguard.Config
	// StepCap is the most model steps (answers) an agent turn may take, a
	// hard stop that needs no judgement: the turn is aborted when the
	// model still asks for tools at the cap. 0 means DefaultStepCap.
	StepCap int

	// The cross-turn policies: their state is the Engine's, shared by
	// every turn it runs (policies.go). Each is off unless Enabled.

	// RateLimiter holds a request until the model's rate-limit buckets,
	// as the answers' headers describe them, can admit it.
	RateLimiter RateLimiter
	// RetryBudget bounds all turns' retries to a share of their requests
	// plus a floor; beyond it a retryable failure gives up at once.
	RetryBudget RetryBudget
	// CircuitBreaker stops sending to a model after consecutive overloads,
	// and lets one probe through after a delay.
	CircuitBreaker CircuitBreaker
	// AdaptiveLimiter bounds the requests in flight with a limit cut on
	// 429 and 529 and grown on success (AIMD).
	AdaptiveLimiter AdaptiveLimiter

	// PromptCache is how the strategy marks its prompt for the
	// provider's prompt cache (cache.go); the zero value marks nothing.
	PromptCache PromptCache
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

func (s Strategy) attempts() int         { return orDefault(s.Attempts, 5) }
func (s Strategy) stepCap() int          { return orDefault(s.StepCap, DefaultStepCap) }
func (s Strategy) maxEscalations() int   { return orDefault(s.MaxEscalations, 3) }
func (s Strategy) adjustBuffer() int     { return orDefault(s.AdjustBuffer, 1000) }
func (s Strategy) adjustFloor() int      { return orDefault(s.AdjustFloor, 3000) }
func (s Strategy) keepRecent() int       { return orDefault(s.KeepRecent, 6) }
func (s Strategy) maxCompactions() int   { return orDefault(s.MaxCompactions, 3) }
func (s Strategy) summaryMaxTokens() int { return orDefault(s.SummaryMaxTokens, 4096) }

func (s Strategy) learnedWindowRatio() float64 {
	if s.LearnedWindowRatio <= 0 || s.LearnedWindowRatio > 1 {
		return 0.85
	}
	return s.LearnedWindowRatio
}

func (s Strategy) shouldRetryMode() ShouldRetryMode {
	if s.ShouldRetry == "" {
		return ShouldRetryHonor
	}
	return s.ShouldRetry
}

func (s Strategy) waitBudget() time.Duration {
	if s.WaitBudget <= 0 && s.Persistent && s.Classify {
		return 6 * time.Hour
	}
	return s.WaitBudget
}

func (s Strategy) turnAttempts() int {
	if s.TurnAttempts <= 0 && s.Persistent {
		return 1000
	}
	return s.TurnAttempts
}

func (s Strategy) persistentCap() time.Duration {
	if s.PersistentCap <= 0 {
		return 5 * time.Minute
	}
	return s.PersistentCap
}

// retries reports whether the strategy resends a failure of kind k that
// came with status (0 for none).
func (s Strategy) retries(k Kind, status int) bool {
	kinds := s.Retry
	if kinds == nil {
		kinds = transientKinds
	}
	if !slices.Contains(kinds, k) {
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
	if s.Rounds <= 0 {
		return false
	}
	kinds := s.RoundRetry
	if kinds == nil {
		kinds = s.Retry
	}
	if kinds == nil {
		kinds = transientKinds
	}
	return slices.Contains(kinds, k)
}

// persistentKind reports whether persistent mode retries k past Attempts.
func (s Strategy) persistentKind(k Kind) bool {
	return s.Persistent && (k == KindRateLimit || k == KindOverloaded)
}

// Clone returns a copy of s whose slices can be changed without touching s's.
func (s Strategy) Clone() Strategy {
	s.Retry = slices.Clone(s.Retry)
	s.RetryStatuses = slices.Clone(s.RetryStatuses)
	s.FallbackOn = slices.Clone(s.FallbackOn)
	s.RoundRetry = slices.Clone(s.RoundRetry)
	s.PromptCache.Breakpoints = slices.Clone(s.PromptCache.Breakpoints)
	return s
}

// TransientKinds returns the kinds a classifying strategy retries when its
// Retry list is nil (docs/classification.md).
func TransientKinds() []Kind { return slices.Clone(transientKinds) }
