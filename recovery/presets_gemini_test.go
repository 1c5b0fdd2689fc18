package recovery_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery"
)

// google is a Gemini API error as recovery/gemini hands it to the engine:
// the Google status as Type, the RetryInfo delay and the quota ids.
func google(code int, status, msg string, delay time.Duration, quotaIDs ...string) answer {
	return answer{err: &recovery.APIError{StatusCode: code, Type: status, Message: msg, RetryDelay: delay, QuotaIDs: quotaIDs}}
}

var (
	perMinute = google(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota. Please retry in 14s.", 14*time.Second, "GenerateRequestsPerMinutePerProjectPerModel")
	perDay    = google(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", 20*time.Second, "GenerateRequestsPerDayPerProjectPerModel")
	longWait  = google(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", 400*time.Second, "GenerateRequestsPerMinutePerProjectPerModel")
	limitNone = google(429, "RESOURCE_EXHAUSTED", "Quota exceeded for metric: generate_content_free_tier_requests, limit: 0", 0)
	gUnavail  = google(503, "UNAVAILABLE", "The model is overloaded. Please try again later.", 0)
	gInternal = google(500, "INTERNAL", "An internal error has occurred.", 0)
	gTooLong  = google(400, "INVALID_ARGUMENT", "The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).", 0)
	gDenied   = google(403, "PERMISSION_DENIED", "Permission denied.", 0)
	gNotFound = google(404, "NOT_FOUND", "models/m is not found for API version v1beta.", 0)
)

// waitsIn says every wait i is in [lo[i], hi[i]].
func waitsIn(lo, hi []time.Duration) func(outcome) {
	return func(o outcome) {
		ExpectWithOffset(1, o.waits).To(HaveLen(len(lo)))
		for i := range lo {
			ExpectWithOffset(1, o.waits[i]).To(BeNumerically(">=", lo[i]), "wait %d", i)
			ExpectWithOffset(1, o.waits[i]).To(BeNumerically("<=", hi[i]), "wait %d", i)
		}
	}
}

func on(model string, a answer) func(int, recovery.Request) answer {
	return func(_ int, r recovery.Request) answer {
		if r.Model == model {
			return a
		}
		return ok("from " + r.Model)
	}
}

func secs(f ...float64) []time.Duration {
	out := make([]time.Duration, len(f))
	for i, s := range f {
		out[i] = time.Duration(s * float64(time.Second))
	}
	return out
}

var _ = Describe("gemini-cli's decision table", func() {
	DescribeTable("on Gemini's errors",
		func(script func(int, recovery.Request) answer, sends int, stop recovery.Stop, fallbacks int, check func(outcome)) {
			o := play(recovery.GeminiCLI(), small(), script)
			Expect(o.sent).To(HaveLen(sends))
			Expect(o.stop()).To(Equal(stop))
			Expect(o.count(recovery.EventFallback)).To(Equal(fallbacks))
			if check != nil {
				check(o)
			}
		},
		// RetryInfo 14 s: max(5 s, 14 s) + 0–20 %; then currentDelay is 28 s,
		// larger than 14 s: 28 s + 0–20 %.
		Entry("per-minute 429: RetryInfo waited, raised by the running delay", thenOK(2, perMinute), 3, recovery.Stop(""), 0,
			waitsIn(secs(14, 28), secs(16.8, 33.6))),
		Entry("per-day quota: terminal, the backup at once with no wait", on("m", perDay), 2, recovery.Stop(""), 1,
			waitsIn(nil, nil)),
		Entry("a RetryInfo over 300 s: terminal, the backup at once", on("m", longWait), 2, recovery.Stop(""), 1,
			waitsIn(nil, nil)),
		Entry("limit: 0: terminal", on("m", limitNone), 2, recovery.Stop(""), 1, nil),
		Entry("404: the backup", on("m", gNotFound), 2, recovery.Stop(""), 1, nil),
		Entry("400 over the window: not retried", always(gTooLong), 1, recovery.StopNotRetryable, 0, nil),
		Entry("403: not retried", always(gDenied), 1, recovery.StopNotRetryable, 0, nil),
		Entry("408: not retried", always(status(408, "", "timeout")), 1, recovery.StopNotRetryable, 0, nil),
		// 5, 10, 20, 30, 30 … s ±30 %, nine waits; the tenth failure falls
		// back with a fresh count.
		Entry("503 storm: 10 attempts, ±30 % from 5 s to 30 s, then the backup", on("m", gUnavail), 11, recovery.Stop(""), 1,
			waitsIn(secs(3.5, 7, 14, 21, 21, 21, 21, 21, 21), secs(6.5, 13, 26, 39, 39, 39, 39, 39, 39))),
		Entry("503 on every model: 10 and 10 attempts", always(gUnavail), 20, recovery.StopAttempts, 1, nil),
		Entry("500 then an answer: one backoff", thenOK(1, gInternal), 2, recovery.Stop(""), 0,
			waitsIn(secs(3.5), secs(6.5))),
		Entry("retry-after is not read: the backoff", thenOK(1, limited), 2, recovery.Stop(""), 0,
			waitsIn(secs(3.5), secs(6.5))),
		Entry("401: not retried", always(unauth), 1, recovery.StopAuth, 0, nil),
	)

	It("counts from 5 s again on the fallback model", func() {
		o := play(recovery.GeminiCLI(), small(), func(_ int, r recovery.Request) answer {
			if r.Model == "m" {
				return perDay
			}
			return gUnavail
		})
		Expect(o.sent).To(HaveLen(11))
		Expect(o.waits[0]).To(BeNumerically("<=", 6500*time.Millisecond))
	})

	It("stops on a terminal quota when no model is left", func() {
		o := play(recovery.GeminiCLI(), small(), always(perDay))
		Expect(o.sent).To(HaveLen(2))
		Expect(o.stop()).To(Equal(recovery.StopNoFallback))
		o = play(recovery.GeminiCLI(), small(), always(longWait))
		Expect(o.sent).To(HaveLen(2))
		Expect(o.stop()).To(Equal(recovery.StopRetryAfterCap))
	})
})

var _ = Describe("RetryInfo in the error body", func() {
	It("classify waits it; a header-only client backs off as if told nothing", func() {
		o := play(recovery.Classifying(), small(), thenOK(1, perMinute))
		Expect(o.waits).To(Equal([]time.Duration{14 * time.Second}))
		o = play(recovery.SDKAnthropic(), small(), thenOK(1, perMinute))
		Expect(o.waits).To(HaveLen(1))
		Expect(o.waits[0]).To(BeNumerically("<", time.Second))
	})

	DescribeTable("the classifier reads Google's statuses",
		func(a answer, kind recovery.Kind) {
			f := recovery.DefaultClassifier(nil, a.err)
			Expect(f.Kind).To(Equal(kind))
		},
		Entry("per-minute RESOURCE_EXHAUSTED, whose message speaks of quota", perMinute, recovery.KindRateLimit),
		Entry("per-day RESOURCE_EXHAUSTED", perDay, recovery.KindQuotaExhausted),
		Entry("a Daily quota id", google(429, "RESOURCE_EXHAUSTED", "", 0, "TokensDaily"), recovery.KindQuotaExhausted),
		Entry("limit: 0", limitNone, recovery.KindQuotaExhausted),
		Entry("limit: 0.5 is not limit: 0", google(429, "RESOURCE_EXHAUSTED", "limit: 0.5", 0), recovery.KindRateLimit),
		Entry("limit: 05 is not limit: 0", google(429, "RESOURCE_EXHAUSTED", "limit: 05", 0), recovery.KindRateLimit),
		Entry("UNAVAILABLE", gUnavail, recovery.KindOverloaded),
		Entry("INTERNAL", gInternal, recovery.KindServer),
		Entry("DEADLINE_EXCEEDED", google(504, "DEADLINE_EXCEEDED", "Deadline expired before operation could complete.", 0), recovery.KindServer),
		Entry("INVALID_ARGUMENT over the window", gTooLong, recovery.KindContextOverflow),
		Entry("INVALID_ARGUMENT otherwise", google(400, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified", 0), recovery.KindInvalidRequest),
		Entry("PERMISSION_DENIED", gDenied, recovery.KindPermission),
		Entry("NOT_FOUND", gNotFound, recovery.KindNotFound),
	)

	It("reads the window and the input of Gemini's overflow", func() {
		o, found := recovery.ParseOverflow("The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).")
		Expect(found).To(BeTrue())
		Expect(o).To(Equal(recovery.Overflow{Input: 1048577, Window: 1048576}))
		f := recovery.DefaultClassifier(nil, perMinute.err)
		Expect(f.RetryDelay).To(Equal(14 * time.Second))
	})
})
