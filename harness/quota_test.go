package harness_test

import (
	"bytes"
	"context"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

// withSpeed is rate-limit-bucket with a model that takes time: 1s to the
// first token, then 100 tokens a second.
func withSpeed() *scenario.Scenario {
	data, err := os.ReadFile("../scenarios/rate-limit-bucket.yaml")
	Expect(err).NotTo(HaveOccurred())
	sc, err := scenario.Parse("rate-limit-bucket.yaml", data)
	Expect(err).NotTo(HaveOccurred())
	m := sc.Models["primary"]
	m.Speed = scenario.Speed{FirstToken: scenario.Duration(1e9), OutputTokensPerSecond: 100}
	sc.Models["primary"] = m
	sc.Name, sc.Expect = "rate-limit-bucket-slow", nil
	return sc
}

var _ = Describe("quotas and speed in a run", func() {
	run := func(sc *scenario.Scenario, parallel int) (ledger.Report, []byte) {
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{sc}, recovery.Presets(), harness.Options{Seed: 3, Parallel: parallel})
		Expect(err).NotTo(HaveOccurred()) // every run's record equals the mock's journal
		var buf bytes.Buffer
		Expect(reports.JSON(&buf, rep)).To(Succeed())
		return rep, buf.Bytes()
	}

	It("gives each run buckets of its own: every strategy meets the same first answer", func() {
		scs, err := scenario.Load("../scenarios/rate-limit-bucket.yaml")
		Expect(err).NotTo(HaveOccurred())
		rep, _ := run(scs[0], 8)
		for _, r := range rep.Results {
			Expect(r.AttemptsLog[0].Status).To(Equal(200), r.Strategy)
		}
		classify := result(rep, "rate-limit-bucket", "classify")
		Expect(classify.AttemptsLog[1].Status).To(Equal(429))
		Expect(classify.AttemptsLog[2].WaitBeforeMS).To(Equal(int64(8000)))
	})

	It("refills the bucket while an answer is in flight: the escalation is admitted at once", func() {
		// 1,500 tokens at 100/s after 1s: 16s in flight, in which 4,000 a
		// minute refills 1,066 — enough for max_tokens 3,000.
		rep, serial := run(withSpeed(), 1)
		classify := result(rep, "rate-limit-bucket-slow", "classify")
		Expect(classify.Outcome).To(Equal(ledger.OutcomeSuccess))
		Expect(classify.Attempts).To(Equal(2))
		Expect(classify.WaitMS).To(BeZero())
		_, wide := run(withSpeed(), 8)
		Expect(wide).To(Equal(serial))
	})
})
