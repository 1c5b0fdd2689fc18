package recovery

import (
	"time"

	"github.com/faultbench/faultbench/recovery/loopguard"
)

// The built-in strategies (docs/strategies.md). Each preset sets every field it relies
// on, and its doc comment says where each behaviour comes from:
// docs/classification.md for blind and classify, the public write-ups
// (cited by title and section, as docs/strategies.md lists them) for the documented
// policies, and the official SDKs' retry code for sdk-anthropic and sdk-openai. Where a
// source is silent the comment says which default was taken.
//
// Only classify and classify-preflight guard agent turns against stuck tool
// loops: the references of the other policies describe no loop guard, so
// they run an agent turn to DefaultStepCap, the harness's own bound.

// Blind is the naive loop (docs/strategies.md): every failure alike, the same request
// resent, base·2^i after each failed attempt including the last, 1 s base,
// 5 attempts, no jitter, no cap, any HTTP 200 taken as done.
func Blind() Strategy {
	return Strategy{
		Name:            "blind",
		Description:     "the naive loop: every failure alike, 1 s·2^i after each failed attempt (the last one too), 5 attempts, any HTTP 200 is done",
		Attempts:        5,
		Backoff:         Backoff{Base: time.Second, Factor: 2, Jitter: JitterNone},
		SleepAfterFinal: true,
	}
}

// Classifying is classify-then-retry (docs/classification.md), deterministic: 1 s base
// doubling, no jitter, 5 attempts per step, the transient kinds of docs/classification.md
// retried, x-should-retry obeyed, retry-after (then the error body's
// RetryInfo, then the rate-limit reset headers) honoured up to 60 s and
// the cap waited above it, fallback after 3 consecutive overloads with no wait before the switch and at once on
// not_found, one credential refresh on a 401, background requests shed on
// an overload, max_tokens ×2 escalation (3 at most), adjustment with a
// 1,000 buffer and a 3,000 floor, compaction keeping the 6 most recent
// messages, at most 3 compactions. Agent turns go through the loop guard
// of the layered agent fault-tolerance demo:
//
//   - second layer, "Agent 循环容错": a sliding window of N = 20; the same
//     tool with the same parameters, and two calls alternating, warned at
//     warnThreshold = 3; then "only when higher threshold is crossed do we
//     actually break out of loop" — the demo gives no figure for it, so
//     loopguard's default of 5 is taken for both.
//   - same section, the no-progress rule: "Identical call + identical
//     result repeated ≥ warnThreshold=2 times. This is strictest rule …
//     It triggers an immediate circuit-breaker." No warning first: the
//     break threshold is the warn threshold, 2 (loopguard.Config.AtOnce).
//     Warning at 2 and breaking at 3, loopguard's default, is still a
//     setting (loop_guard.no_progress_break: 3) the preset does not use.
//   - third layer, "硬性步数上限": MAX_STEPS = 15.
func Classifying() Strategy {
	return Strategy{
		Name:           "classify",
		Description:    "classify-then-retry as docs/classification.md describes, deterministic: 1 s·2^i, 5 attempts per step, retry-after honoured, fallback after 3 overloads, max_tokens adjustment, escalation and compaction",
		Classify:       true,
		Attempts:       5,
		Backoff:        Backoff{Base: time.Second, Factor: 2, Jitter: JitterNone},
		ShouldRetry:    ShouldRetryHonor,
		RetryAfter:     ServerWait{Honor: RetryAfterHonor, RateLimitReset: true, RetryInfo: true, Cap: 60 * time.Second},
		Fallback:       Fallback{After: 3, On: []Kind{KindNotFound}},
		Auth:           AuthRefresh,
		ShedBackground: true,
		Escalation:     Escalation{Factor: 2, Max: 3},
		Adjust:         Adjust{Enabled: true, Buffer: 1000, Floor: 3000},
		Compaction:     Compaction{Enabled: true, KeepRecent: 6, Max: 3, SummaryMaxTokens: 4096, LearnedWindowRatio: 0.85},
		LoopGuard: LoopGuard{
			Enabled: true,
			Config:  loopguard.Config{Window: 20, RepeatWarn: 3, RepeatBreak: 5, PingPongWarn: 3, PingPongBreak: 5, NoProgressWarn: 2, NoProgressBreak: 2},
		},
		StepCap: 15,
	}
}

// ClassifyPreflight is Classifying with Preflight on: every request is
// counted before it is sent and shrunk first when it cannot fit the
// model's known window or output limit, so the first doomed attempt of an
// overflow is never sent. No source has it; it shows what counting first
// saves.
func ClassifyPreflight() Strategy {
	s := Classifying()
	s.Name = "classify-preflight"
	s.Description = "classify, but each request is counted before it is sent and shrunk first when it cannot fit, so no doomed attempt goes out"
	s.Preflight = true
	return s
}

// ClassifyFleet is Classifying with the four cross-turn policies on, for
// an Engine that many turns share (a fleet of agents on one key). Its
// constants, and why:
//
//   - rate limiter, max_wait 2 min: a bucket measured per minute is full
//     again within 60 s; twice that covers the second-rounded reset and a
//     bucket that others drain meanwhile, and past it the server decides.
//   - retry budget, ratio 0.2, min_retries 10, window 60 s: 0.2 is
//     Finagle's default percentCanRetry; the window is a minute because
//     the buckets it protects are counted per minute; a floor of 10 a
//     minute lets a lone caller (for whom 0.2 × its requests is nothing)
//     still make two turns' worth of classify's retries.
//   - circuit breaker, failure_threshold 3, delay 10 s: three overloads in
//     a row is what classify already takes as "this model is overloaded"
//     (Fallback.After); 10 s is longer than classify's three backoff waits
//     (1 + 2 + 4 s), so a probe comes after the storm the retries met.
//   - adaptive limiter, initial 20, min 1, max 100, backoff_ratio 0.5:
//     TCP's halving rather than Netflix's 0.9, because a fleet gets a few
//     answers a second, not thousands, and one cut must relieve an
//     overloaded server at once; 20 (the default) lets the first wave go,
//     so that the rate limiter and the breaker learn from the first
//     refusal instead of the limit queueing turns for a model that has a
//     fallback with room (overload-storm: 18 s with 10, 4 s with 20); 100
//     bounds what a key of a few hundred requests a minute can use.
func ClassifyFleet() Strategy {
	s := Classifying()
	s.Name = "classify-fleet"
	s.Description = "classify with the cross-turn policies a shared Engine needs: a limiter that reads the rate-limit headers, a retry budget, a circuit breaker on 529s and an AIMD in-flight limit"
	s.RateLimiter = RateLimiter{Enabled: true, MaxWait: 2 * time.Minute}
	s.RetryBudget = RetryBudget{Enabled: true, Ratio: 0.2, MinRetries: 10, Window: time.Minute}
	s.CircuitBreaker = CircuitBreaker{Enabled: true, FailureThreshold: 3, Delay: 10 * time.Second}
	s.AdaptiveLimiter = AdaptiveLimiter{Enabled: true, InitialLimit: 20, MinLimit: 1, MaxLimit: 100, BackoffRatio: 0.5}
	return s
}

// ClaudeCode reproduces Claude Code's withRetry (services/api/withRetry.ts)
// as chapter 13 of a published walk-through of Claude Code's source,
// 容错与恢复算法 (fault tolerance and recovery algorithms), describes it;
// the sections are that chapter's:
//
//   - §13.2.1, the shouldRetry decision tree: connection errors, 408, 409,
//     429 (for API-key users, so a quota 429 too), 5xx and overloaded_error
//     are retried; anything else ("其他") is not, so unknown and empty
//     answers stop. overloaded_error is checked before x-should-retry, which
//     is read before the status: "true" resends any failure, a permanent
//     one too (ShouldRetryPermanent: the preset is an API-key user, for
//     whom the tree's "true" branch applies).
//   - x-should-retry: false on a 5xx. The tree reads '"false" + 非5xx → 不
//     重试', which would let a 5xx through; principle three of the same
//     section says the 5xx override is for internal users ("内部用户遇到
//     5xx"), and Claude Code's source gates it so. The preset models an
//     external API-key user, so "false" stops a 5xx too; only an overload
//     is retried whatever the header says (ShouldRetryHonorExceptOverloaded).
//   - §13.3.1, getRetryDelay: retry-after first, read as parseInt(value)
//     whole seconds and used as given with no cap (RetryAfterSecondsOnly:
//     no retry-after-ms; "1.5" is 1 s; an HTTP date falls back to the
//     backoff); otherwise 500 ms·2^(n−1) capped at 32 s, plus 0–25 % jitter.
//   - §13.4.1: 3 consecutive 529s (MAX_529_RETRIES) switch to the fallback
//     model.
//   - §13.4.3: background queries give up on a 529 (load shedding).
//   - §13.7 and §13.8: on "input length and max_tokens exceed context
//     limit", lower max_tokens to limit − input − 1,000; when that leaves
//     less than the 3,000 floor the error is thrown: the turn fails, with
//     no compaction (Compact off: compaction is another layer of Claude
//     Code, which this retry loop does not call). "Too many retries?" is
//     checked before the adjustment, so an adjustment spends an attempt of
//     the step instead of opening a new one (Adjust.WithinStep), and an
//     overflow at the last attempt stops. A "prompt is too long" overflow
//     (the input alone over) has no room to adjust into: it fails.
//   - retry-after plus 0–25 % (RetryAfter.Jitter): the chapter says the
//     server's wait is used as given, but Claude Code 2.1.332 measured
//     against faultbench serve waited 2,377, 2,487 and 2,389 ms for a
//     retry-after of 2 and 4,675, 4,328 and 4,889 ms for one of 4: the
//     backoff's jitter is added to the server's wait too.
//   - a 400 that says max_tokens is above the model's maximum is resent at
//     once with the maximum (ClampMaxTokens), as the same measurement
//     showed (128,000 for a model of 64,000: resent with 64,000, answered).
//   - §13.11: before every retry, a 401 clears the cached credential and
//     the request is resent within the normal attempts
//     (AuthWithinAttempts: the refresh hook runs before each resend, no
//     limit of one). A revoked-token 403 is not told apart from any other
//     403 by the classifier, so it is not retried.
//
// The reference gives no count of attempts; 11 (the first try and
// withRetry's DEFAULT_MAX_RETRIES of 10) is Claude Code's own default.
// Persistent mode (§13.3.3: 5 min backoff cap, reset headers, 30 s
// heartbeats, 6 h bound) is off, as it is unless the user asks for it;
// strategies/claude-code-persistent.yaml turns it on. Truncated answers are
// handed back: the reference describes no max_tokens escalation.
//
// Claude Code caches its prompt by default, with the 5-minute lifetime
// unless ENABLE_PROMPT_CACHING_1H asks an hour (docs/cost.md); where it
// puts its breakpoints the sources do not say, so the preset marks the
// system prompt and the last user message, the places Anthropic's guide
// gives for a conversation.
func ClaudeCode() Strategy {
	return Strategy{
		Name:                 "claude-code",
		Description:          "Claude Code's withRetry (services/api/withRetry.ts: DEFAULT_MAX_RETRIES 10, MAX_529_RETRIES 3; docs/strategies.md): 500 ms·2^n to 32 s +0–25 % jitter, retry-after first +0–25 % (measured on Claude Code 2.1.332), 3×529 → fallback when one is offered, max_tokens clamped to the model's maximum and adjusted on overflow, background shed",
		Classify:             true,
		Attempts:             11,
		Backoff:              Backoff{Base: 500 * time.Millisecond, Factor: 2, Cap: 32 * time.Second, Jitter: JitterPositive, JitterRatio: 0.25},
		Retry:                []Kind{KindConnection, KindTimeout, KindConflict, KindRateLimit, KindQuotaExhausted, KindServer, KindOverloaded},
		RetryStatuses:        append([]int{408, 409, 429}, StatusRange(500, 599)...),
		ShouldRetry:          ShouldRetryHonorExceptOverloaded,
		ShouldRetryPermanent: true,
		RetryAfter:           ServerWait{Honor: RetryAfterSecondsOnly, Jitter: 0.25},
		Fallback:             Fallback{After: 3},
		Auth:                 AuthWithinAttempts,
		ShedBackground:       true,
		Adjust:               Adjust{Enabled: true, Buffer: 1000, Floor: 3000, WithinStep: true},
		ClampMaxTokens:       true,
		PromptCache:          PromptCache{Breakpoints: []Breakpoint{BreakpointSystem, BreakpointLastUser}},
	}
}

// KimiCode reproduces Kimi Code's turn convergence as
// Kimi Code's "turn convergence" write-up (回合收敛与异常吸收) describes it:
//
//   - "step 内重试": 10 attempts per step (max_attempts_per_step), 500 ms
//     doubling to a 32 s cap plus up to 25 % jitter, Retry-After obeyed
//     when the provider sends it; connection, timeout, rate_limit and
//     overloaded are retried, an error status only when it is one of 408
//     409 429 500 502 503 504 529, empty answers unless filtered;
//     context_overflow, request_too_large and quota_exhausted never, nor
//     anything unknown.
//   - "recovery 生效后 attempt 重置为 1": the one recovery wired in is a
//     credential refresh on a recoverable 401, after which the count
//     starts again.
//   - "上下文溢出": an overflow is never retried as is; it goes to
//     compaction, at most 3 times; each overflow records 0.85 × the
//     estimated input as the model's window, whatever the message says, and
//     the smaller of it and the configured window is used from then on
//     (Compaction.LearnFromEstimate); a 413 counts as an overflow when the request is
//     at least half the window.
//
// The write-up describes no max_tokens adjustment, escalation, model
// fallback or x-should-retry; those are off. How many recent messages a
// compaction keeps is not given: docs/strategies.md's 6.
func KimiCode() Strategy {
	return Strategy{
		Name:          "kimi-code",
		Description:   "Kimi Code's turn convergence (the write-up 回合收敛与异常吸收, daiw.org/manual/kimi-code/turn-convergence: max_attempts_per_step 10): 10 attempts per step, 500 ms·2^n to 32 s +25 % jitter, listed statuses only, overflow → compaction (3 at most)",
		Classify:      true,
		Attempts:      10,
		Backoff:       Backoff{Base: 500 * time.Millisecond, Factor: 2, Cap: 32 * time.Second, Jitter: JitterPositive, JitterRatio: 0.25},
		Retry:         []Kind{KindConnection, KindTimeout, KindRateLimit, KindOverloaded, KindServer, KindConflict, KindEmptyResponse},
		RetryStatuses: []int{408, 409, 429, 500, 502, 503, 504, 529},
		ShouldRetry:   ShouldRetryIgnore,
		RetryAfter:    ServerWait{Honor: RetryAfterHonor},
		Auth:          AuthRefresh,
		Compaction: Compaction{
			Enabled:            true,
			KeepRecent:         6,
			Max:                3,
			SummaryMaxTokens:   4096,
			LearnedWindowRatio: 0.85,
			LearnFromEstimate:  true,
			TooLargeAsOverflow: 0.5,
		},
	}
}

// S11 reproduces the Kotlin s11 ErrorRecoveryManager as
// "Index 11: Error Recovery" (the Kotlin s11 agent) describes it:
//
//   - ErrorClassifier: network, rate_limit, api, overloaded and timeout
//     errors are transient; authentication, invalid_request, not_found and
//     permission errors are permanent; any other type is transient ("重试比
//     放弃安全"), so a conflict, a billing error or a request_too_large is
//     retried too. A context overflow is an invalid_request_error:
//     permanent.
//   - RetryStrategy: 3 attempts in all, 500 ms·2^n, no jitter, no cap, no
//     sleep after the last; no retry-after.
//   - ModelFallback: a permanent error, or transient ones that used up the
//     attempts, move to the next model of the chain.
//   - TokenEscalation: on max_tokens, one ×2 escalation with a 32,768
//     ceiling (an escalation above it is not made), and no other bound:
//     an escalation above the model's output limit is sent, and its 400
//     moves to the next model as any permanent error does
//     (Escalation.Unclamped). The escalated call is one more attempt of the
//     step, and if it fails max_tokens goes back to the original
//     (Escalation.WithinStep). A truncated answer is otherwise handed back.
//
// It has no compaction, adjustment, credential refresh or x-should-retry.
func S11() Strategy {
	return Strategy{
		Name:        "s11",
		Description: "the Kotlin s11 agent's ErrorRecoveryManager (RetryStrategy, ModelFallback, TokenEscalation; docs/strategies.md): 3 attempts, 500 ms·2^n, unknown → transient, fallback on permanent errors, one ×2 escalation to 32,768",
		Classify:    true,
		Attempts:    3,
		Backoff:     Backoff{Base: 500 * time.Millisecond, Factor: 2, Jitter: JitterNone},
		Retry: []Kind{KindConnection, KindRateLimit, KindServer, KindOverloaded, KindTimeout,
			KindQuotaExhausted, KindConflict, KindRequestTooLarge, KindUnknown},
		ShouldRetry: ShouldRetryIgnore,
		Fallback: Fallback{
			On:          []Kind{KindAuth, KindInvalidRequest, KindContextOverflow, KindNotFound, KindPermission},
			OnExhausted: true,
		},
		Escalation: Escalation{Factor: 2, Max: 1, Ceiling: 32768, Unclamped: true, WithinStep: true},
	}
}

// SDKAnthropic is the retry built into anthropic-sdk-go (internal/
// requestconfig; its siblings in other languages agree): 3 attempts;
// connection errors, 408, 409, 429 (a quota 429 too: the SDK reads only
// the status) and every 5xx retried; x-should-retry read first, so "true"
// resends any failure and "false" none; retry-after-ms, then retry-after
// (seconds or an HTTP date), used as given with no upper bound; otherwise
// 0.5 s·2^n capped at 8 s minus up to 25 % jitter. No fallback,
// escalation, adjustment, compaction or credential refresh: the SDK hands
// any answer back as it came. A stream is retried only until it begins:
// once its 200 has come, a cut, an error event or a stall ends the call
// (GiveUpMidStream; internal/clientcheck measures both SDKs so).
func SDKAnthropic() Strategy {
	return Strategy{
		Name:                 "sdk-anthropic",
		Description:          "anthropic-sdk-go's built-in retry: 3 attempts on connection errors, 408, 409, 429 and 5xx, x-should-retry first, retry-after as given, else 0.5 s·2^n to 8 s −0–25 % jitter",
		Classify:             true,
		Attempts:             3,
		Backoff:              Backoff{Base: 500 * time.Millisecond, Factor: 2, Cap: 8 * time.Second, Jitter: JitterNegative, JitterRatio: 0.25},
		Retry:                []Kind{KindConnection, KindTimeout, KindConflict, KindRateLimit, KindQuotaExhausted, KindServer, KindOverloaded},
		RetryStatuses:        append([]int{408, 409, 429}, StatusRange(500, 599)...),
		ShouldRetry:          ShouldRetryHonor,
		ShouldRetryPermanent: true,
		GiveUpMidStream:      true,
		RetryAfter:           ServerWait{Honor: RetryAfterHonor},
	}
}

// SDKOpenAI is the retry built into openai-go (internal/requestconfig): as
// SDKAnthropic, but a server wait above 2 minutes (its
// defaultMaxRetryAfterDelay) is not waited for: the call ends with the
// error. Its backoff is the same 0.5 s·2^n capped at 8 s
// (DefaultMaxServerDelay) minus up to 25 % jitter. openai-go also ends the
// call, without a retry, on the attempt's own timeout, and on a body that
// could not be read; the engine's timeout kind does not say whose deadline
// it was, nor a connection failure whether the status had come, so both
// are retried here.
func SDKOpenAI() Strategy {
	s := SDKAnthropic()
	s.Name = "sdk-openai"
	s.Description = "openai-go's built-in retry: as sdk-anthropic, but a server wait above 2 min ends the call"
	s.RetryAfter.Cap = 2 * time.Minute
	s.RetryAfter.AboveCap = AboveCapGiveUp
	return s
}

// Codex is the retry of OpenAI's Codex CLI, read in openai/codex codex-rs:
//
//   - core/src/model_provider_info.rs: DEFAULT_REQUEST_MAX_RETRIES = 4
//     (5 attempts per HTTP request: codex-client's run_with_retry loops
//     0..=max_attempts), DEFAULT_STREAM_MAX_RETRIES = 5 (the turn loop
//     sends the request again up to 5 more times: Rounds 5),
//     DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300,000; its RetryConfig sets
//     base_delay 200 ms, retry_429 false, retry_5xx true, retry_transport
//     true: the HTTP layer resends a 5xx, a connection failure or a
//     timeout, and nothing else (no 408, 409 or 429).
//   - codex-client/src/retry.rs, backoff(): 200 ms·2^(n−1) × a factor
//     drawn in [0.9, 1.1) (symmetric 10 % jitter), no cap; the turn loop
//     waits the same backoff of its own count between rounds. Neither
//     layer reads retry-after or x-should-retry.
//   - core/src/api_bridge.rs and error.rs: a 400 is InvalidRequest, a
//     context overflow ContextWindowExceeded, a 429 RetryLimit (or
//     UsageLimitReached, QuotaExceeded): none retryable, so they stop at
//     once; a 500 (InternalServerError), any other status
//     (UnexpectedStatus: 401, 403, 404, 408, 409, 413, 5xx), a stream that
//     broke after its 200 (Stream) and transport errors are retryable: a
//     new round each.
//
// So a persistent 503 makes 6 rounds of 5 attempts, 30 in all, as
// Codex 0.171.0 measured against faultbench serve did. A stream that fails
// after it began is not resent by the HTTP layer (GiveUpMidStream) but
// starts a new round. The delay an in-stream rate-limit message asks for
// ("try again in 1.5s"), which the turn loop waits instead of its backoff,
// is not read: the engine reads no wait out of a message. Codex's
// compaction of an overflowing context is another layer, off here.
func Codex() Strategy {
	return Strategy{
		Name:            "codex",
		Description:     "OpenAI Codex CLI (openai/codex codex-rs/core/src/model_provider_info.rs DEFAULT_REQUEST_MAX_RETRIES 4, DEFAULT_STREAM_MAX_RETRIES 5; codex-client/src/retry.rs backoff): 5 attempts on 5xx and transport errors, 200 ms·2^n ±10 % uncapped, in up to 6 rounds; 400 and 429 stop",
		Classify:        true,
		Attempts:        5,
		Backoff:         Backoff{Base: 200 * time.Millisecond, Factor: 2, Jitter: JitterSymmetric, JitterRatio: 0.1},
		Retry:           []Kind{KindServer, KindOverloaded, KindConnection, KindTimeout},
		RetryStatuses:   StatusRange(500, 599),
		ShouldRetry:     ShouldRetryIgnore,
		GiveUpMidStream: true,
		Rounds: Rounds{
			Max: 5,
			Retry: []Kind{KindServer, KindOverloaded, KindConnection, KindTimeout, KindConflict,
				KindAuth, KindPermission, KindNotFound, KindRequestTooLarge, KindUnknown},
			Backoff: Backoff{Base: 200 * time.Millisecond, Factor: 2, Jitter: JitterSymmetric, JitterRatio: 0.1},
		},
	}
}

// AISDK is the retry of the Vercel AI SDK (vercel/ai,
// packages/ai/src/util/retry-with-exponential-backoff.ts): maxRetries 2
// (3 attempts), initialDelayInMs 2,000, backoffFactor 2, no jitter, no
// cap; only an APICallError with isRetryable, which the provider utils set
// for 408, 409, 429 and every 5xx and for a failed fetch (a quota 429 too:
// only the status is read); retry-after-ms, then retry-after (seconds or
// an HTTP date), used only when 0 ≤ ms < 60 s or below the backoff delay
// (AboveCapBackoff), else the backoff. x-should-retry is not read. The
// retry wraps the call until its response begins, so a stream that fails
// after its 200 is not resent (GiveUpMidStream). No fallback, escalation,
// adjustment or compaction.
func AISDK() Strategy {
	return Strategy{
		Name:            "ai-sdk",
		Description:     "Vercel AI SDK (vercel/ai packages/ai/src/util/retry-with-exponential-backoff.ts: maxRetries 2, initialDelayInMs 2000, backoffFactor 2): 3 attempts on 408, 409, 429, 5xx and network errors, retry-after only below 60 s",
		Classify:        true,
		Attempts:        3,
		Backoff:         Backoff{Base: 2 * time.Second, Factor: 2, Jitter: JitterNone},
		Retry:           []Kind{KindConnection, KindTimeout, KindConflict, KindRateLimit, KindQuotaExhausted, KindServer, KindOverloaded},
		RetryStatuses:   append([]int{408, 409, 429}, StatusRange(500, 599)...),
		ShouldRetry:     ShouldRetryIgnore,
		GiveUpMidStream: true,
		RetryAfter:      ServerWait{Honor: RetryAfterHonor, Cap: time.Minute, AboveCap: AboveCapBackoff},
	}
}

// LangChainJS is the retry of LangChain.js (langchain-ai/langchainjs,
// langchain-core/src/utils/async_caller.ts), whose chat models turn their
// SDK client's own retries off and call through AsyncCaller: maxRetries
// 6 (7 attempts) through p-retry with randomize: true and p-retry's
// defaults otherwise (factor 2, minTimeout 1,000 ms, maxTimeout
// Infinity): the wait before retry n is 1 s·2^(n−1) × a factor drawn in
// [1, 2) (positive jitter of 100 %), uncapped. defaultFailedAttemptHandler
// stops on a status in STATUS_NO_RETRY (400 to 409: so 408 and 409 too),
// on error code insufficient_quota, and on an abort or cancel; everything
// else is retried: 429, 410 and above, every 5xx, a connection failure, an
// unknown error. No retry-after, no x-should-retry. The retry wraps the
// call until the stream begins (GiveUpMidStream).
func LangChainJS() Strategy {
	return Strategy{
		Name:        "langchain-js",
		Description: "LangChain.js AsyncCaller (langchain-ai/langchainjs langchain-core/src/utils/async_caller.ts: maxRetries 6 through p-retry, randomize): 7 attempts, 1 s·2^n × U(1,2) uncapped, no retry-after, 400–409 and insufficient_quota stop",
		Classify:    true,
		Attempts:    7,
		Backoff:     Backoff{Base: time.Second, Factor: 2, Jitter: JitterPositive, JitterRatio: 1},
		Retry: []Kind{KindConnection, KindTimeout, KindRateLimit, KindServer, KindOverloaded,
			KindRequestTooLarge, KindInvalidRequest, KindUnknown},
		RetryStatuses:   StatusRange(410, 599),
		ShouldRetry:     ShouldRetryIgnore,
		GiveUpMidStream: true,
	}
}

// SDKDefault is the name the official SDKs' preset had before it was split
// in two: an alias of SDKAnthropic under its old name, so that
// --strategies sdk-default and budgets keyed sdk-default still work. It is
// not in Presets.
func SDKDefault() Strategy {
	s := SDKAnthropic()
	s.Name = "sdk-default"
	s.Description = "an alias of sdk-anthropic, the name the SDKs' preset had before sdk-openai was split from it"
	return s
}

// StatusRange returns the statuses from lo to hi, both included.
func StatusRange(lo, hi int) []int {
	out := make([]int, 0, max(hi-lo+1, 0))
	for s := lo; s <= hi; s++ {
		out = append(out, s)
	}
	return out
}

// Presets returns the built-in strategies in their documented order.
func Presets() []Strategy {
	return []Strategy{Blind(), Classifying(), ClassifyPreflight(), ClassifyFleet(), ClaudeCode(), KimiCode(), S11(), SDKAnthropic(), SDKOpenAI(),
		GeminiCLI(), Codex(), AISDK(), LangChainJS()}
}

// Aliases returns the other names presets are known by: sdk-default, for
// sdk-anthropic.
func Aliases() []string { return []string{"sdk-default"} }

// Preset returns the built-in strategy called name, or the preset an alias
// (Aliases) names, under the alias.
func Preset(name string) (Strategy, bool) {
	if name == "sdk-default" {
		return SDKDefault(), true
	}
	for _, s := range Presets() {
		if s.Name == name {
			return s, true
		}
	}
	return Strategy{}, false
}
