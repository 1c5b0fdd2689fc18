package grade_test

import (
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/mockllm"
)

// The ladder, the outage and the unbounded checks over journals written
// here, as a client with a known policy would leave them: fast, and
// exact. warp_test.go runs real probe clients under the warp.

// rungs are the ladder's rungs in the pack's order (its file names): the
// wait each asks, -1 for none.
var rungs = []int64{30_000, 59_000, 60_000, 61_000, 120_000, 121_000, 600_000, -1}

// attempt is a journal entry of one model request a rule answered.
func attempt(n int, at, gap int64, status int, kind string, asked int64) mockllm.Entry {
	e := mockllm.Entry{N: n, TimeMS: at, GapMS: gap, Status: status, Kind: kind, Rule: 1, Model: "primary"}
	if asked >= 0 {
		e.RetryAfterMS = &asked
	}
	return e
}

// climb is the ladder's runs of a client that answers each rung's 429
// with answer(asked): the gap to its next request, or -1 to give up.
func climb(answer func(asked int64) int64, exitOnGiveUp int) []grade.Run {
	ladder := packOf("retry-after-ladder-")
	runs := make([]grade.Run, len(ladder))
	for i, sc := range ladder {
		asked := rungs[i]
		r := grade.Run{Scenario: sc, Entries: []mockllm.Entry{attempt(1, 0, 0, 429, "rate_limit", asked)}, Timeout: time.Minute, Speed: 1}
		if gap := answer(asked); gap >= 0 {
			r.Entries = append(r.Entries, attempt(2, gap, gap, 200, "ok", -1))
		} else {
			r.Exit = exitOnGiveUp
		}
		runs[i] = r
	}
	return runs
}

// ceilinged is a client keeping waits up to top ms; above, it does
// above(asked). Without retry-after it waits 500 ms.
func ceilinged(top int64, above func(asked int64) int64) func(int64) int64 {
	return func(asked int64) int64 {
		switch {
		case asked < 0:
			return 500
		case top < 0 || asked <= top:
			return asked + 40
		}
		return above(asked)
	}
}

func giveUp(int64) int64 { return -1 }

// findingsOf are the findings of check.
func findingsOf(check string, runs []grade.Run) []grade.Finding {
	var out []grade.Finding
	for _, f := range grade.Judge(runs, grade.Bounds{}) {
		if f.Check == check {
			out = append(out, f)
		}
	}
	return out
}

var _ = Describe("the Retry-After ladder", func() {
	DescribeTable("states each client's ceiling and what it does above it, and passes it",
		func(answer func(int64) int64, stated string) {
			fs := findingsOf("ladder", climb(answer, 1))
			Expect(fs).To(HaveLen(8))
			for _, f := range fs {
				Expect(f.Status).To(Equal(grade.Pass), f.Scenario+": "+f.Evidence)
				Expect(f.Evidence).To(HaveSuffix("; "+stated), f.Scenario)
			}
		},
		Entry("no ceiling (anthropic-sdk-typescript, opencode)", ceilinged(-1, nil), "no ceiling: kept every wait asked, up to 600 s"),
		Entry("60 s, then backoff (anthropic-sdk-python, openai-node)", ceilinged(60_000, func(int64) int64 { return 700 }),
			"ceiling 60 s; above it falls back to its backoff (retried after 0.7 s)"),
		Entry("60 s, then give up (Claude Code)", ceilinged(60_000, giveUp), "ceiling 60 s; above it gives up"),
		Entry("120 s, then give up (openai-python, openai-go)", ceilinged(120_000, giveUp), "ceiling 120 s; above it gives up"),
		Entry("capped at 300 s (pydantic-ai)", ceilinged(300_000, func(int64) int64 { return 300_000 }), "ceiling 121 s; above it caps the wait at 300 s"),
		Entry("capped at 120 s (LlamaIndex)", ceilinged(120_000, func(int64) int64 { return 120_000 }), "ceiling 120 s; above it caps the wait at 120 s"),
	)

	It("fails a client that retries sooner than a minute's ask, or gives up on it", func() {
		fs := findingsOf("ladder", climb(ceilinged(0, func(int64) int64 { return 1000 }), 1))
		Expect(fs[0].Status).To(Equal(grade.Fail))
		Expect(fs[0].Evidence).To(HavePrefix("retried 1 s after a 429 asking 30 s: sooner than asked"))
		Expect(fs[0].Evidence).To(HaveSuffix("no ceiling kept: at 30 s it falls back to its backoff (retried after 1 s)"))
		fs = findingsOf("ladder", climb(ceilinged(59_000, giveUp), 1))
		Expect(fs[2].Status).To(Equal(grade.Fail), fs[2].Evidence)
		Expect(fs[2].Evidence).To(HavePrefix("gave up on a 429 asking 60 s (exit 1)"))
		Expect(fs[3].Status).To(Equal(grade.Pass), fs[3].Evidence)
	})

	It("fails a client that gives up above its ceiling and exits 0, or retries at once", func() {
		fs := findingsOf("ladder", climb(ceilinged(60_000, giveUp), 0))
		Expect(fs[3].Status).To(Equal(grade.Fail))
		Expect(fs[3].Evidence).To(HavePrefix("reported success although it gave up on a 429 asking 61 s"))
		fs = findingsOf("ladder", climb(ceilinged(60_000, func(int64) int64 { return 10 }), 1))
		Expect(fs[3].Status).To(Equal(grade.Fail))
		Expect(fs[3].Evidence).To(HavePrefix("retried 0.01 s after a 429 asking 61 s: at once"))
	})

	It("is inconclusive when the noise could have made a kept wait of a backoff", func() {
		runs := climb(ceilinged(60_000, func(int64) int64 { return 700 }), 1)
		for i := range runs {
			runs[i].Noise = 20 * time.Second
		}
		fs := findingsOf("ladder", runs)
		Expect(fs[0].Status).To(Equal(grade.Inconclusive))
		Expect(fs[0].Evidence).To(ContainSubstring("ceiling unknown: the 30.0 s gap after the 30 s rung"))
	})
})

// outageRun is the outage's run of a client whose gaps are gaps (ms),
// each request a 529 until the 30 minutes are over, then answered.
func outageRun(gaps []int64, exit int) grade.Run {
	sc := packOf("outage-30min")[0]
	r := grade.Run{Scenario: sc, Exit: exit, Timeout: time.Minute, Speed: 60}
	var at int64
	for i := 0; i <= len(gaps); i++ {
		if i > 0 {
			at += gaps[i-1]
		}
		status, kind := 529, "overloaded"
		if at >= 30*60_000 {
			status, kind = 200, "ok"
		}
		r.Entries = append(r.Entries, attempt(i+1, at, map[bool]int64{true: 0, false: gaps[max(0, i-1)]}[i == 0], status, kind, -1))
	}
	return r
}

// every is n gaps of d ms.
func every(n int, d int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = d
	}
	return out
}

var _ = Describe("the long outage", func() {
	DescribeTable("judges a client through 30 minutes of 529",
		func(gaps []int64, exit int, want grade.Status, evidence string) {
			fs := findingsOf("outage", []grade.Run{outageRun(gaps, exit)})
			Expect(fs).To(HaveLen(1))
			Expect(fs[0].Status).To(Equal(want), fs[0].Evidence)
			Expect(fs[0].Evidence).To(ContainSubstring(evidence))
		},
		Entry("rides it out, resuming within its wait", every(61, 30_000), 0, grade.Pass, "rode out the 30 min outage in 60 attempts; resumed 0 s after the recovery"),
		Entry("gives up within the bound", every(9, 8_000), 1, grade.Pass, "gave up after 10 attempts in 72 s (exit 1)"),
		Entry("says success after giving up", every(9, 8_000), 0, grade.Fail, "reported success although it gave up"),
		Entry("keeps at it past the bound, then gives up", every(40, 30_000), 1, grade.Fail, "kept at it 20 min, over the 10 min bound"),
		Entry("stays silent past the silence bound", []int64{1000, 400_000, 1000}, 1, grade.Fail, "sent nothing for 6.7 min before attempt 3, over the 5 min it may stay silent"),
		Entry("sleeps through the recovery", append(every(59, 30_000), 120_000), 0, grade.Fail, "it slept through the recovery"),
	)
})

var _ = Describe("the unbounded check", func() {
	It("fails a client still retrying at the horizon, with its count and rate, and passes one that stopped", func() {
		sc := packOf("overload-forever")[0]
		r := grade.Run{Scenario: sc, TimedOut: true, Exit: -1, Timeout: 2 * time.Minute, Speed: 60}
		for i := range 2401 {
			r.Entries = append(r.Entries, attempt(i+1, int64(i)*3000, 3000, 529, "overloaded", -1))
		}
		fs := findingsOf("unbounded", []grade.Run{r})
		Expect(fs[0].Status).To(Equal(grade.Fail))
		Expect(fs[0].Evidence).To(Equal("still retrying at the horizon (120 min of its time): 2401 attempts, 20 a minute"))
		r.TimedOut, r.Exit, r.Entries = false, 1, r.Entries[:10]
		fs = findingsOf("unbounded", []grade.Run{r})
		Expect(fs[0].Status).To(Equal(grade.Pass))
		Expect(fs[0].Evidence).To(Equal(fmt.Sprintf("stopped after 10 attempts in %s (exit 1)", "27 s")))
	})
})

var _ = Describe("the host's noise on a warped clock", func() {
	It("is N times the real noise, and the checks' floor and first-gap allowances N times too", func() {
		Expect(grade.WarpNoise(5*time.Millisecond, 1)).To(Equal(5 * time.Millisecond))
		// 60 × 5 ms, and 59 × (20 ms + 100 ms) that the margin adds at speed 1 only once.
		Expect(grade.WarpNoise(5*time.Millisecond, 60)).To(Equal(7380 * time.Millisecond))
	})
})

var _ = Describe("a card with the ladder", func() {
	It("prints the documented ceilings beside the one the ladder found", func() {
		var buf strings.Builder
		c := grade.NewCard([]string{"probe"}, climb(ceilinged(60_000, giveUp), 1), grade.Bounds{})
		Expect(grade.WriteText(&buf, c)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("ceiling 60 s; above it gives up"))
		Expect(buf.String()).To(ContainSubstring(grade.Documented))
	})
})
