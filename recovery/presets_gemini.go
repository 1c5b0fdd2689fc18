package recovery

import "time"

// GeminiCLI reproduces Gemini CLI's retryWithBackoff and its error
// classifier, as google-gemini/gemini-cli has them in
// packages/core/src/utils/retry.ts and googleQuotaErrors.ts:
//
//   - retry.ts DEFAULT_MAX_ATTEMPTS = 10 (config.ts takes the smaller of
//     it and the user's maxAttempts), DEFAULT_RETRY_OPTIONS initialDelayMs
//     5000 and maxDelayMs 30000: 10 attempts; the delay starts at 5 s and
//     doubles after each wait (currentDelay = Math.min(maxDelayMs,
//     currentDelay * 2)), waited with ±30 % jitter (currentDelay * 0.3 *
//     (Math.random() * 2 - 1)). currentDelay is a running value
//     (Backoff.Running).
//   - a RetryableQuotaError with retryDelayMs (RetryInfo.retryDelay, or
//     "Please retry in Xs" in a message without details): currentDelay =
//     Math.max(currentDelay, retryDelayMs), waited plus 0–20 %
//     ("Positive jitter up to +20%"): RetryAfter.RetryInfo, RetryAfter.Jitter
//     0.2. No header is read: retry-after is not honoured.
//   - googleQuotaErrors.ts MAX_RETRYABLE_DELAY_SECONDS = 300: a longer
//     retry delay is a TerminalQuotaError, and so is a QuotaFailure whose
//     quotaId has PerDay or Daily (DefaultClassifier: quota_exhausted), or
//     a message with "limit: 0". A terminal error, and a 404
//     (ModelNotFoundError), call onPersistent429, which switches to the
//     fallback model; then "attempt = 0; // Reset attempts" and
//     currentDelay = initialDelayMs (AboveCapFallback, Fallback.On). With
//     no model left the error is thrown.
//   - isRetryableError: "Explicitly do not retry 400"; 429, 499 and 5xx
//     are retried, and the network codes (ECONNRESET, ETIMEDOUT, EPIPE,
//     ECONNREFUSED, the UND_ERR_*_TIMEOUTs): connection and timeout kinds,
//     statuses 429, 499 and 5xx. 401, 403, 408 and 409 are not. A 503 is
//     classified as a RetryableQuotaError.
//   - "Max attempts reached": a retryable quota error or a 5xx on the last
//     attempt calls onPersistent429 too, so the fallback model gets a fresh
//     count (Fallback.OnExhausted).
//
// Where Gemini CLI differs and the preset does not follow: the fallback
// model is the one the interactive dialog accepts (the preset accepts at
// once); MODEL_CAPACITY_EXHAUSTED's three silent retries and Cloud Code's
// ErrorInfo reasons are not modelled; geminiChat.ts's second loop for a
// stream that fails after it began (MID_STREAM_RETRY_OPTIONS: 4 attempts,
// 1 s·2^n) is not a separate loop here: such a failure is retried by this
// one. A QuotaFailure with a PerMinute quotaId and no RetryInfo waits 60 s
// there and the backoff here. There is no max_tokens escalation,
// adjustment or compaction in this loop (chat compression is another
// layer of Gemini CLI).
func GeminiCLI() Strategy {
	return Strategy{
		Name:          "gemini-cli",
		Description:   "Gemini CLI's retryWithBackoff (google-gemini/gemini-cli retry.ts, googleQuotaErrors.ts): 10 attempts, 5 s doubling to 30 s ±30 % jitter, RetryInfo honoured +0–20 %, a wait over 300 s or a per-day quota → fallback model with the count restarted, 400 not retried",
		Classify:      true,
		Attempts:      10,
		Backoff:       Backoff{Base: 5 * time.Second, Factor: 2, Cap: 30 * time.Second, Jitter: JitterSymmetric, JitterRatio: 0.3, Running: true},
		Retry:         []Kind{KindConnection, KindTimeout, KindRateLimit, KindOverloaded, KindServer},
		RetryStatuses: append([]int{429, 499}, StatusRange(500, 599)...),
		ShouldRetry:   ShouldRetryIgnore,
		RetryAfter:    ServerWait{RetryInfo: true, Jitter: 0.2, Cap: 300 * time.Second, AboveCap: AboveCapFallback},
		Fallback:      Fallback{On: []Kind{KindQuotaExhausted, KindNotFound}, OnExhausted: true},
	}
}
