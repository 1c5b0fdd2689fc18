package recovery

import (
	"time"

	"github.com/faultbench/faultbench/recovery/adaptivelimiter"
	"github.com/faultbench/faultbench/recovery/circuitbreaker"
	"github.com/faultbench/faultbench/recovery/loopguard"
	"github.com/faultbench/faultbench/recovery/retrybudget"
)

// RetryBudget bounds the retries of all an Engine's turns together
// (package retrybudget).
type RetryBudget = retrybudget.Config

// AdaptiveLimiter bounds the requests in flight on each model with a
// limit learnt by AIMD (package adaptivelimiter).
type AdaptiveLimiter = adaptivelimiter.Config

// CircuitBreaker stops sending to a model that keeps answering
// overloaded (package circuitbreaker).
type CircuitBreaker = circuitbreaker.Config

// BreakerState is a circuit breaker's state, as failsafe-go names them.
type BreakerState = circuitbreaker.State

// The states of a circuit breaker.
const (
	BreakerClosed   = circuitbreaker.Closed
	BreakerOpen     = circuitbreaker.Open
	BreakerHalfOpen = circuitbreaker.HalfOpen
)

// The blocks of a Strategy, each in the shape of its block in a strategy
// file (docs/strategies.md). The cross-turn policies' blocks are beside
// their state (ratelimiter.go and the packages retrybudget,
// circuitbreaker and adaptivelimiter); Backoff is in backoff.go.

// Rounds wraps a step's attempts in an outer loop, as Codex's turn loop
// (stream_max_retries) wraps its HTTP retries (request_max_retries): when
// a step ends on a failure of a kind Retry lists — its attempts used up, a
// failure the step does not resend, or a stream that failed after it
// began under GiveUpMidStream — the engine waits Backoff and starts the
// step again with a fresh count, at most Max more times. Classify only.
type Rounds struct {
	// Max is how many more rounds may start; 0: no outer loop.
	Max int `yaml:"max"`
	// Retry lists the kinds that start a new round; nil means the kinds
	// Strategy.Retry lists.
	Retry []Kind `yaml:"retry,flow,omitzero"`
	// Backoff computes the wait before round i+1 (0 for the first new
	// round). Its Running is not read.
	Backoff Backoff `yaml:"backoff"`
}

// ServerWait says which waits the server asks for are taken: the
// retry-after headers, the rate-limit reset headers and the error body's
// RetryInfo, and what a wait above the cap does. Classify only.
type ServerWait struct {
	// Honor says how the retry-after headers are read; "" means
	// RetryAfterIgnore.
	Honor RetryAfterMode `yaml:"honor"`
	// RateLimitReset, when the server sent no retry-after, waits until
	// the rate-limit window resets as the Anthropic
	// anthropic-ratelimit-*-reset (RFC 3339) or OpenAI x-ratelimit-reset-*
	// (duration) headers say.
	RateLimitReset bool `yaml:"rate_limit_reset"`
	// RetryInfo waits the delay the error body asks for
	// (Failure.RetryDelay: Google's google.rpc.RetryInfo retryDelay) when
	// no retry-after header gave one. A client that reads only headers
	// leaves it false and backs off as if the server had said nothing.
	// Cap bounds it too.
	RetryInfo bool `yaml:"retry_info"`
	// Jitter adds 0 to this share of a server-requested wait (retry-after,
	// a reset, RetryInfo) to it, drawn from the engine's random source, so
	// that callers told the same wait do not come back at the same instant
	// (Gemini CLI: 0.2); 0 waits it exactly.
	Jitter float64 `yaml:"jitter"`
	// Cap bounds a server-requested wait (retry-after, reset or
	// RetryInfo); 0 means no bound.
	Cap time.Duration `yaml:"cap"`
	// AboveCap says what a server wait above Cap does; "" means
	// AboveCapWait.
	AboveCap AboveCap `yaml:"above_cap"`
}

// HonorsHeader reports whether the retry-after headers are read.
func (w ServerWait) HonorsHeader() bool {
	return w.Honor == RetryAfterHonor || w.Honor == RetryAfterSecondsOnly
}

// RetryAfterMode says how the retry-after headers are read.
type RetryAfterMode string

// The ways of reading retry-after.
const (
	// RetryAfterIgnore: the headers are not read; the backoff decides.
	RetryAfterIgnore RetryAfterMode = "ignore"
	// RetryAfterHonor waits what the server asks: retry-after-ms, then
	// retry-after as seconds or an HTTP date (RetryAfter).
	RetryAfterHonor RetryAfterMode = "honor"
	// RetryAfterSecondsOnly reads only retry-after, and only as a whole
	// number of seconds (RetryAfterSeconds: Claude Code's parseInt): no
	// retry-after-ms, and an HTTP date falls back to the backoff.
	RetryAfterSecondsOnly RetryAfterMode = "seconds_only"
)

// RetryAfterModes lists the ways of reading retry-after.
func RetryAfterModes() []RetryAfterMode {
	return []RetryAfterMode{RetryAfterIgnore, RetryAfterHonor, RetryAfterSecondsOnly}
}

// AboveCap says what a server-requested wait above ServerWait.Cap does.
type AboveCap string

// What a wait above the cap does.
const (
	// AboveCapWait waits the cap instead.
	AboveCapWait AboveCap = "wait"
	// AboveCapGiveUp stops the turn (openai-go above 2 min).
	AboveCapGiveUp AboveCap = "give_up"
	// AboveCapFallback moves the turn to the next fallback model (a new
	// step), and stops only when no model is left: Gemini CLI takes a
	// retry delay over 300 s as a terminal quota and falls back.
	AboveCapFallback AboveCap = "fallback"
	// AboveCapBackoff replaces a server wait of the cap or more with the
	// backoff delay, when that is shorter (the Vercel AI SDK uses a
	// retry-after only below 60 s).
	AboveCapBackoff AboveCap = "backoff"
)

// AboveCaps lists what a wait above the cap may do.
func AboveCaps() []AboveCap {
	return []AboveCap{AboveCapWait, AboveCapGiveUp, AboveCapFallback, AboveCapBackoff}
}

// Fallback says when the turn moves to the next fallback model
// (WithFallbacks), at once and starting a new step. Classify only.
type Fallback struct {
	// After is how many consecutive overloads make the engine switch, with
	// no wait; 0 never switches on overloads.
	After int `yaml:"after"`
	// On lists the kinds that switch at once (classify: not_found; s11:
	// every permanent error); when no model is left the turn stops. nil
	// switches on none.
	On []Kind `yaml:"on,flow"`
	// OnExhausted switches, instead of stopping, when a step's attempts
	// run out (s11).
	OnExhausted bool `yaml:"on_exhausted"`
}

// AuthMode says what a 401 does.
type AuthMode string

// What a 401 may do.
const (
	// AuthStop: a 401 stops the turn.
	AuthStop AuthMode = "stop"
	// AuthRefresh calls the engine's refresh hook (WithAuthRefresh) once
	// per turn on a 401, then resends with a fresh count of attempts; a
	// second 401 stops. Without a hook a 401 stops at once.
	AuthRefresh AuthMode = "refresh"
	// AuthWithinAttempts resends a 401 as any retryable failure: within
	// the step's attempts, after the backoff, with the refresh hook (when
	// there is one) called before every resend and no limit of one (Claude
	// Code clears its cached credential before each retry).
	// x-should-retry still applies.
	AuthWithinAttempts AuthMode = "within_attempts"
)

// AuthModes lists what a 401 may do.
func AuthModes() []AuthMode { return []AuthMode{AuthStop, AuthRefresh, AuthWithinAttempts} }

// Escalation raises max_tokens when an answer comes back truncated.
type Escalation struct {
	// Factor multiplies max_tokens; 0 or 1 turns escalation off. The new
	// value is bounded by the model's output limit and by the window less
	// the input.
	Factor float64 `yaml:"factor"`
	// Max bounds escalations per turn; 0 means 3.
	Max int `yaml:"max"`
	// Ceiling, when not 0, is a hard ceiling: an escalation that would go
	// above it is not made, and the truncated answer is handed back
	// (s11's 32,768).
	Ceiling int `yaml:"ceiling"`
	// Unclamped bounds an escalation by Ceiling alone, not by the model's
	// output limit or window: the oversize request is sent and its error
	// handled as any other (s11).
	Unclamped bool `yaml:"unclamped"`
	// WithinStep makes an escalation one more attempt of the step (its
	// count is not reset), and a failed escalated call goes back to the
	// max_tokens it had before (s11).
	WithinStep bool `yaml:"within_step"`
}

// Adjust lowers max_tokens after a context overflow whose input alone
// fits: max_tokens = window − input − Buffer, never below Floor (when even
// the floor does not fit, the engine compacts).
type Adjust struct {
	Enabled bool `yaml:"enabled"`
	// Buffer is the safety margin of an adjustment; 0 means 1,000.
	Buffer int `yaml:"buffer"`
	// Floor is the least output budget an adjustment leaves; 0 means 3,000.
	Floor int `yaml:"floor"`
	// WithinStep makes an adjustment one more attempt of the step instead
	// of a new step, and makes an overflow met when the step's attempts
	// are used up stop the turn (Claude Code checks "too many retries?"
	// before it adjusts).
	WithinStep bool `yaml:"within_step"`
}

// Compaction summarises older messages through a repair call when the
// input itself does not fit the window, and says how an overflow teaches
// the window.
type Compaction struct {
	Enabled bool `yaml:"enabled"`
	// KeepRecent is how many of the most recent messages a compaction
	// keeps as they are; 0 means 6.
	KeepRecent int `yaml:"keep_recent"`
	// Max compactions per turn; 0 means 3. Past it the turn fails with
	// ErrCompactionLimit.
	Max int `yaml:"max"`
	// SummaryMaxTokens is the output budget of the summarisation call; 0
	// means 4,096.
	SummaryMaxTokens int `yaml:"summary_max_tokens"`
	// LearnedWindowRatio: after an overflow whose message gives no window,
	// and that the declared window cannot explain, the engine takes the
	// window to be this share of the input it counted, and plans every
	// later request of the turn against it (Kimi Code); 0 means 0.85.
	LearnedWindowRatio float64 `yaml:"learned_window_ratio"`
	// TooLargeAsOverflow, when not 0, handles a 413 request_too_large as a
	// context overflow if the request's input is at least this share of
	// the known window (Kimi Code: 0.5).
	TooLargeAsOverflow float64 `yaml:"too_large_as_overflow"`
	// LearnFromEstimate learns, on every overflow, LearnedWindowRatio × the
	// input the engine counted, whatever window the message gives (Kimi
	// Code records 0.85 × its estimate as the model's window each time);
	// false prefers the window the message states.
	LearnFromEstimate bool `yaml:"learn_from_estimate"`
}

// LoopGuard watches the tool calls of an agent turn (RunAgent): each
// call's fingerprint (tool name and a hash of its arguments as canonical
// JSON) and result go into a sliding window, and the three detectors
// (repeat, ping_pong, no_progress) first warn — the model is told, in the
// next user message, that it is repeating itself — then break, stopping
// the turn as aborted; a detector whose break threshold equals its warn
// threshold breaks at once, with no warning (loopguard.Config.AtOnce).
// Without it only Strategy.StepCap stops a looping model.
type LoopGuard struct {
	Enabled bool `yaml:"enabled"`
	// Config holds the guard's thresholds; a zero field takes the default
	// loopguard.Config documents: a window of 20 calls, repeat warn 3 /
	// break 5, ping_pong 3 / 5 cycles, no_progress 2 / 3.
	loopguard.Config `yaml:",inline"`
}
