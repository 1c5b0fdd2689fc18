package harness_test

import (
	"bytes"
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("a workload", func() {
	herd := func(opts harness.Options) (ledger.Report, []byte) {
		scs, err := scenario.Load("../scenarios/thundering-herd.yaml")
		Expect(err).NotTo(HaveOccurred())
		rep, err := harness.Run(context.Background(), scs, recovery.Presets(), opts)
		Expect(err).NotTo(HaveOccurred()) // every turn's record equals its session's journal
		var buf bytes.Buffer
		Expect(reports.JSON(&buf, rep)).To(Succeed())
		return rep, buf.Bytes()
	}

	// at_ms is when an attempt's result came back, in virtual time since
	// the workload began, and duration_ms how long it was in flight: turn
	// k may start at (k-1) × 2s, and waits for one of the two slots.
	DescribeTable("records when each attempt came back and how long it took",
		func(stream string) {
			sc, err := scenario.Parse("timed.yaml", []byte(`name: timed
description: Four turns, two at a time, every answer taking 3 s.
models:
  m: {context_window: 10000, max_output: 1000, speed: {first_token: 1s, output_tokens_per_second: 100}}
turn: {model: m, max_tokens: 500, messages: [{count: 1, tokens: 100}], answer_tokens: 200, stream: `+stream+`}
workload: {turns: 4, concurrency: 2, start: {every: 2s}}
`))
			Expect(err).NotTo(HaveOccurred())
			rep, err := harness.Run(context.Background(), []*scenario.Scenario{sc}, blindAndClassify()[1:], harness.Options{Seed: 1})
			Expect(err).NotTo(HaveOccurred())
			r := result(rep, "timed", "classify")
			type timing struct {
				Turn             int
				AtMS, DurationMS int64
			}
			var got []timing
			for _, a := range r.AttemptsLog {
				got = append(got, timing{a.Turn, a.AtMS, a.DurationMS})
			}
			// Turns 1 and 2 start at 0s and 2s; turn 3 at 4s (turn 1 ended
			// at 3s), turn 4 at 6s (turn 2 ended at 5s).
			Expect(got).To(Equal([]timing{{1, 3000, 3000}, {2, 5000, 3000}, {3, 7000, 3000}, {4, 9000, 3000}}))
			Expect(r.Workload.MakespanMS).To(Equal(int64(9000)))
			// Each turn started when it was due; its 3 s were in flight.
			Expect(r.Workload.QueuedMS).To(Equal(int64(0)))
			Expect(r.Workload.InFlightMS).To(Equal(int64(12000)))
		},
		Entry("a JSON answer", "false"),
		Entry("a streamed answer", "true"),
	)

	It("counts the time a turn waits for a slot as queued", func() {
		sc, err := scenario.Parse("queued.yaml", []byte(`name: queued
description: Three turns due together, one at a time, every answer taking 3 s.
models:
  m: {context_window: 10000, max_output: 1000, speed: {first_token: 1s, output_tokens_per_second: 100}}
turn: {model: m, max_tokens: 500, messages: [{count: 1, tokens: 100}], answer_tokens: 200}
workload: {turns: 3, concurrency: 1, start: together}
`))
		Expect(err).NotTo(HaveOccurred())
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{sc}, blindAndClassify()[1:], harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		w := result(rep, "queued", "classify").Workload
		// Turn 2 waits 3 s for the slot, turn 3 waits 6 s.
		Expect(w.QueuedMS).To(Equal(int64(9000)))
		Expect(w.InFlightMS).To(Equal(int64(9000)))
	})

	// A request waiting for the adaptive limiter's slot is woken when the
	// slot is freed, at that virtual instant: not at the next look of a
	// poll (50 ms later at best), and not once per poll either.
	It("sends a request waiting for a slot the moment the slot is freed", func() {
		sc, err := scenario.Parse("one-slot.yaml", []byte(`name: one-slot
description: Three turns due together, every answer taking 3.01 s.
models:
  m: {context_window: 10000, max_output: 1000, speed: {first_token: 1s, output_tokens_per_second: 100}}
turn: {model: m, max_tokens: 500, messages: [{count: 1, tokens: 100}], answer_tokens: 201}
workload: {turns: 3, concurrency: 3, start: together}
`))
		Expect(err).NotTo(HaveOccurred())
		s := recovery.Classifying()
		s.Name = "one-slot"
		s.AdaptiveLimiter = recovery.AdaptiveLimiter{Enabled: true, InitialLimit: 1, MaxLimit: 1}
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{sc}, []recovery.Strategy{s}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		r := result(rep, "one-slot", "one-slot")
		var at []int64
		for _, a := range r.AttemptsLog {
			at = append(at, a.AtMS)
		}
		Expect(at).To(Equal([]int64{3010, 6020, 9030}))
		Expect(r.HoldMS).To(Equal(int64(3010 + 6020)))
	})

	It("records the fleet limiter's holds apart from the retries' waits", func() {
		rep, _ := herd(harness.Options{Seed: 5})
		Expect(result(rep, "thundering-herd", "classify-fleet").HoldMS).To(BeNumerically(">", 0))
		Expect(result(rep, "thundering-herd", "blind").HoldMS).To(BeZero())
	})

	It("shares the bucket among the turns: ten admitted at once, the rest refused, turns overlapping", func() {
		rep, _ := herd(harness.Options{Seed: 5})
		r := result(rep, "thundering-herd", "classify")
		w := r.Workload
		Expect(w).NotTo(BeNil())
		Expect(w.Turns).To(Equal(20))
		Expect(w.Succeeded + w.Failed).To(Equal(20))
		Expect(w.Status429).To(BeNumerically(">=", 10))
		Expect(w.Attempts).To(Equal(r.Attempts))
		Expect(w.WastedInputTokens).To(Equal(w.Status429 * r.AttemptsLog[0].InputTokens))
		// The first ten answers take 3s each, all in flight together.
		Expect(w.P50MS).To(BeNumerically(">=", 3000))
		Expect(w.MakespanMS).To(BeNumerically("<", int64(3000*w.Succeeded)))
		first := map[int]int{} // turn → status of its first attempt
		for _, a := range r.AttemptsLog {
			Expect(a.Turn).To(BeNumerically(">=", 1))
			if _, seen := first[a.Turn]; !seen {
				first[a.Turn] = a.Status
			}
		}
		for turn := 1; turn <= 20; turn++ {
			want := 200
			if turn > 10 {
				want = 429
			}
			Expect(first[turn]).To(Equal(want), "turn %d", turn)
		}
	})
})
