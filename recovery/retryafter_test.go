package recovery_test

import (
	"math"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery"
)

var _ = Describe("RetryAfter", func() {
	now := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

	DescribeTable("reads what the server asks",
		func(header map[string]string, want time.Duration, wantOK bool) {
			h := http.Header{}
			for k, v := range header {
				h.Set(k, v)
			}
			got, ok := recovery.RetryAfter(h, now)
			Expect(ok).To(Equal(wantOK))
			Expect(got).To(Equal(want))
		},
		Entry("no header", nil, time.Duration(0), false),
		Entry("seconds", map[string]string{"retry-after": "2"}, 2*time.Second, true),
		Entry("fractional seconds", map[string]string{"retry-after": "1.5"}, 1500*time.Millisecond, true),
		Entry("zero", map[string]string{"retry-after": "0"}, time.Duration(0), true),
		Entry("spaces around", map[string]string{"retry-after": " 5 "}, 5*time.Second, true),
		Entry("milliseconds", map[string]string{"retry-after-ms": "250"}, 250*time.Millisecond, true),
		Entry("fractional milliseconds", map[string]string{"retry-after-ms": "84.5"}, 84500*time.Microsecond, true),
		Entry("retry-after-ms before retry-after",
			map[string]string{"retry-after-ms": "1500", "retry-after": "2"}, 1500*time.Millisecond, true),
		Entry("unreadable retry-after-ms falls back to retry-after",
			map[string]string{"retry-after-ms": "soon", "retry-after": "3"}, 3*time.Second, true),
		Entry("negative retry-after-ms falls back to retry-after",
			map[string]string{"retry-after-ms": "-5", "retry-after": "3"}, 3*time.Second, true),
		Entry("HTTP date ahead of now",
			map[string]string{"retry-after": now.Add(30 * time.Second).Format(http.TimeFormat)}, 30*time.Second, true),
		Entry("RFC 850 date ahead of now",
			map[string]string{"retry-after": now.Add(time.Minute).Format(time.RFC850)}, time.Minute, true),
		Entry("HTTP date in the past", map[string]string{"retry-after": now.Add(-time.Hour).Format(http.TimeFormat)}, time.Duration(0), true),
		Entry("too large for a Duration", map[string]string{"retry-after": "1e12"}, time.Duration(math.MaxInt64), true),
		Entry("negative seconds", map[string]string{"retry-after": "-1"}, time.Duration(0), false),
		Entry("garbage", map[string]string{"retry-after": "soon"}, time.Duration(0), false),
		Entry("NaN", map[string]string{"retry-after": "NaN"}, time.Duration(0), false),
		Entry("infinity", map[string]string{"retry-after-ms": "Inf"}, time.Duration(0), false),
		Entry("empty", map[string]string{"retry-after": ""}, time.Duration(0), false),
	)
})
