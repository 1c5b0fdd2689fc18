package mockllm_test

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("absolute times, for a session that does not start at the virtual epoch (serve)", func() {
	It("sends retry-after dates and reset times as the session's start plus the scripted offset", func() {
		sc := newScenario(
			rule(scenario.When{Before: secs(8)}, scenario.Respond{Status: 429, Headers: map[string]string{
				"retry-after": "Thu, 01 Jan 2026 00:00:08 GMT",
			}}),
			rule(scenario.When{Before: secs(20)}, scenario.Respond{Status: 429, Headers: map[string]string{
				"retry-after": "", "anthropic-ratelimit-requests-remaining": "0",
				"anthropic-ratelimit-requests-reset": "2026-01-01T00:00:20Z",
			}}),
		)
		c := clock.NewVirtual()
		c.Advance(1000*time.Hour + 500*time.Millisecond) // "real" time: the session starts here
		start := c.Now()
		srv := mockllm.New([]*scenario.Scenario{sc}, c)

		w := to("s").send(srv, ask("sonnet", 100, 10))
		Expect(w.Code).To(Equal(429))
		date, err := http.ParseTime(w.Header().Get("Retry-After"))
		Expect(err).NotTo(HaveOccurred())
		Expect(date).To(Equal(start.Add(8 * time.Second).Truncate(time.Second).Add(time.Second)))
		Expect(*srv.Entries(scName, "s")[0].RetryAfterMS).To(Equal(int64(8500)))

		c.Advance(8500 * time.Millisecond) // the client waits until the date
		w = to("s").send(srv, ask("sonnet", 100, 10))
		Expect(w.Code).To(Equal(429)) // the second rule's window
		reset, err := time.Parse(time.RFC3339, w.Header().Get("Anthropic-Ratelimit-Requests-Reset"))
		Expect(err).NotTo(HaveOccurred())
		Expect(reset).To(Equal(start.Add(20 * time.Second).Truncate(time.Second).Add(time.Second)))
		e := srv.Entries(scName, "s")[1]
		Expect(*e.HonoredRetryAfter).To(BeTrue())

		c.Advance(reset.Sub(c.Now()))
		Expect(to("s").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(200))
	})

	It("sends them as written when the session starts at the epoch (the harness)", func() {
		sc := newScenario(rule(scenario.When{Before: secs(8)}, scenario.Respond{Status: 429, Headers: map[string]string{
			"retry-after": "Thu, 01 Jan 2026 00:00:08 GMT",
		}}))
		srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		w := to("s").send(srv, ask("sonnet", 100, 10))
		Expect(w.Header().Get("Retry-After")).To(Equal("Thu, 01 Jan 2026 00:00:08 GMT"))
		Expect(*srv.Entries(scName, "s")[0].RetryAfterMS).To(Equal(int64(8000)))
	})
})
