package scenario_test

import (
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

const quotaModels = `name: quota
description: A model with quotas, capacity and speed.
models:
  m:
    context_window: 1000
    max_output: 100
    limits: {rpm: 50, itpm: 30000, otpm: 8000}
    capacity: {concurrent: 4}
    speed: {first_token: 400ms, output_tokens_per_second: 80}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10}
`

var _ = Describe("A model's quotas, capacity and speed", func() {
	It("reads limits, capacity and speed", func() {
		s, err := scenario.Parse("q.yaml", []byte(quotaModels))
		Expect(err).NotTo(HaveOccurred())
		m := s.Models["m"]
		Expect(m.Limits).To(Equal(scenario.RateLimits{RPM: 50, ITPM: 30000, OTPM: 8000}))
		Expect(m.Capacity.Concurrent).To(Equal(4))
		Expect(m.Speed.FirstToken.D()).To(Equal(400 * time.Millisecond))
		Expect(m.Speed.OutputTokensPerSecond).To(Equal(80))
	})

	It("refuses negative and oversized values, naming each field", func() {
		_, err := scenario.Parse("q.yaml", []byte(`name: quota
description: Bad quotas.
models:
  m:
    context_window: 1000
    max_output: 100
    limits: {rpm: -1, itpm: 20000000000, otpm: 0}
    capacity: {concurrent: -2}
    speed: {first_token: 11m, output_tokens_per_second: -5}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10}
`))
		Expect(fields(scenario.Errors(err))).To(ConsistOf(
			"models.m.limits.rpm", "models.m.limits.itpm", "models.m.capacity.concurrent",
			"models.m.speed.first_token", "models.m.speed.output_tokens_per_second",
		))
		Expect(scenario.Errors(err)[0].Line).To(Equal(7))
	})

	It("refuses an unknown quota field with a suggestion", func() {
		_, err := scenario.Parse("q.yaml", []byte(`name: quota
description: A typo.
models: {m: {context_window: 1000, max_output: 100, limits: {rpms: 5}}}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10}
`))
		Expect(err).To(MatchError(ContainSubstring(`did you mean "rpm"`)))
	})

	DescribeTable("an answer's time in flight",
		func(sp scenario.Speed, output int, want time.Duration) {
			Expect(sp.Duration(output)).To(Equal(want))
		},
		Entry("no speed: at once", scenario.Speed{}, 500, time.Duration(0)),
		Entry("first token only", scenario.Speed{FirstToken: scenario.Duration(400 * time.Millisecond)}, 500, 400*time.Millisecond),
		Entry("80 tokens/s", scenario.Speed{FirstToken: scenario.Duration(400 * time.Millisecond), OutputTokensPerSecond: 80}, 800, 10400*time.Millisecond),
		Entry("rounded up to the microsecond", scenario.Speed{OutputTokensPerSecond: 3}, 1, 333334*time.Microsecond),
	)
})

var _ = Describe("A workload", func() {
	It("reads turns, concurrency and start, together or every", func() {
		s, err := scenario.Parse("w.yaml", minimal("workload: {turns: 20, concurrency: 5, start: together}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Workload).To(Equal(scenario.Workload{Turns: 20, Concurrency: 5}))
		s, err = scenario.Parse("w.yaml", minimal("workload: {turns: 20, start: {every: 500ms}}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Workload.Start.Every.D()).To(Equal(500 * time.Millisecond))
	})

	It("refuses a start that is neither, and turns out of range", func() {
		_, err := scenario.Parse("w.yaml", minimal("workload: {turns: 0, concurrency: -1, start: soon}\n"))
		Expect(fields(scenario.Errors(err))).To(ConsistOf("workload.turns", "workload.concurrency", "workload.start"))
	})
})

var _ = Describe("A workload's background turns", func() {
	It("marks exactly the declared number, spread evenly", func() {
		w := scenario.Workload{Turns: 20, Background: 5}
		var marked []int
		for k := range w.Turns {
			if w.IsBackground(k) {
				marked = append(marked, k)
			}
		}
		Expect(marked).To(Equal([]int{3, 7, 11, 15, 19}))
		all := scenario.Workload{Turns: 3, Background: 3}
		Expect(all.IsBackground(0) && all.IsBackground(1) && all.IsBackground(2)).To(BeTrue())
		Expect(scenario.Workload{Turns: 3}.IsBackground(0)).To(BeFalse())
	})

	It("refuses more background turns than turns, naming the field", func() {
		_, err := scenario.Parse("w.yaml", []byte(`name: w
description: Too many background turns.
models: {m: {context_window: 1000, max_output: 100}}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10}
workload: {turns: 2, background: 3}
`))
		Expect(err).To(MatchError(ContainSubstring("workload.background")))
		Expect(err).To(MatchError(ContainSubstring("w.yaml:5")))
	})
})

var _ = Describe("A workload's start", func() {
	It("bounds start.every, so that the last start stays within time's range", func() {
		_, err := scenario.Parse("w.yaml", []byte(`name: w
description: Turns a century apart.
models: {m: {context_window: 1000, max_output: 100}}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10}
workload: {turns: 3, start: {every: 2562047h}}
`))
		Expect(err).To(MatchError(ContainSubstring("workload.start.every")))
	})

	It("bounds turns × start.every, so that no turn starts before an earlier one", func() {
		parse := func(turns int) error {
			_, err := scenario.Parse("w.yaml", []byte(fmt.Sprintf(`name: w
description: Turns a day apart.
models: {m: {context_window: 1000, max_output: 100}}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10}
workload: {turns: %d, start: {every: 24h}}
`, turns)))
			return err
		}
		// 1,000 turns a day apart start within three years: the turns'
		// ceiling keeps the span far inside the 100 years start.every allows.
		Expect(parse(110_000)).To(MatchError(ContainSubstring("workload.turns: must be between 1 and 1000, got 110000")))
		Expect(parse(scenario.MaxTurns)).To(Succeed())
		Expect(time.Duration(scenario.MaxTurns-1) * scenario.MaxEvery).To(BeNumerically("<", scenario.MaxStartSpan))
	})

	It("quotes at most a short prefix of a bad start", func() {
		long := strings.Repeat("x", 5000)
		_, err := scenario.Parse("w.yaml", []byte(`name: w
description: A long start.
models: {m: {context_window: 1000, max_output: 100}}
turn: {model: m, max_tokens: 100, messages: [{count: 1, tokens: 10}], answer_tokens: 10}
workload: {turns: 3, start: `+long+`}
`))
		Expect(err).To(HaveOccurred())
		Expect(len(err.Error())).To(BeNumerically("<", 1000))
	})
})
