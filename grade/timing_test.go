package grade_test

import (
	"bytes"
	"context"
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/internal/fakeclient"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// timed is journal for the check: a run that names check, with these
// gaps after failures and the host's noise.
func timed(name, check string, noise time.Duration, gaps ...int64) grade.Run {
	r := journal(name, gaps...)
	r.Scenario.Grade, r.Noise = []string{check}, noise
	return r
}

// verdicts are the findings of check over runs.
func verdicts(check string, runs ...grade.Run) []grade.Finding {
	var out []grade.Finding
	for _, f := range grade.Judge(runs, bounds) {
		if f.Check == check {
			out = append(out, f)
		}
	}
	ExpectWithOffset(1, out).To(HaveLen(len(runs)))
	return out
}

var _ = Describe("the backoff check", func() {
	It("fails a loop with no wait and one 0.15 s hiccup: 9 attempts in 0.17 s", func() {
		f := verdicts("backoff", timed("a", "backoff", 0, 2, 3, 2, 150, 3, 2, 3, 4))[0]
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring("retried at once"))
	})

	It("fails a 200-attempt sleep(0) loop on a loaded host, its gaps starved to 130 ms now and then", func() {
		gaps := make([]int64, 199)
		for i := range gaps {
			gaps[i] = int64(i % 3)
			if i%7 == 3 {
				gaps[i] = 130
			}
		}
		f := verdicts("backoff", timed("a", "backoff", 130*time.Millisecond, gaps...))[0]
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
	})

	It("does not fail a textbook full-jitter client whose one draw did not grow (seed 22: 0.48, 0.15, 0.051 s)", func() {
		f := verdicts("backoff", timed("a", "backoff", 0, 480, 150, 51))[0]
		Expect(f.Status).To(Equal(grade.Inconclusive), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring("the host's noise was 0 ms"))
	})

	It("passes an exact doubling and the official SDKs' two retries, and fails a fixed 1 s sleep, even one whose gaps creep up", func() {
		for _, f := range verdicts("backoff", timed("a", "backoff", 0, 500, 1000, 2000, 4000), timed("b", "backoff", 0, 503, 1002, 2004, 4001)) {
			Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		}
		for _, f := range verdicts("backoff", timed("a", "backoff", 10*time.Millisecond, 452, 910), timed("b", "backoff", 10*time.Millisecond, 480, 905)) {
			Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		}
		for _, f := range verdicts("backoff", timed("a", "backoff", 0, 1000, 1004, 1002, 1003), timed("b", "backoff", 0, 1001, 1003, 1000, 1002, 1004)) {
			Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
			Expect(f.Evidence).To(ContainSubstring("did not grow"))
		}
		for _, f := range verdicts("backoff", timed("a", "backoff", 0, 1000, 1040, 1080, 1120, 1160, 1200)) {
			Expect(f.Status).NotTo(Equal(grade.Pass), f.Evidence)
		}
	})
})

var _ = Describe("the jitter check, against noise", func() {
	It("never passes an exact 0.5/1/2 s schedule whose first gap carries fetch's first-request overhead", func() {
		f := verdicts("jitter", timed("a", "jitter", 0, 550, 1000, 2000))[0]
		Expect(f.Status).NotTo(Equal(grade.Pass), f.Evidence)
		for _, f := range verdicts("jitter", timed("a", "jitter", 0, 550, 1000, 2000, 4000), timed("b", "jitter", 0, 530, 1001, 2002, 4001)) {
			Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		}
	})

	It("does not take one hiccup for jitter, and answers inconclusive when the noise hides what a jitter would show", func() {
		for _, f := range verdicts("jitter", timed("a", "jitter", 0, 1000, 1000, 1400, 1000, 1000), timed("b", "jitter", 0, 1000, 1000, 1000, 1000, 1000)) {
			Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		}
		for _, f := range verdicts("jitter", timed("a", "jitter", 200*time.Millisecond, 500, 520, 510), timed("b", "jitter", 200*time.Millisecond, 530, 500, 540)) {
			Expect(f.Status).To(Equal(grade.Inconclusive), f.Evidence)
			Expect(f.Evidence).To(ContainSubstring("the host's noise was 200 ms"))
		}
	})
})

var _ = Describe("the retry-after check, against noise", func() {
	It("is inconclusive on a wait over its ceiling by less than the noise, and fails one over it by more", func() {
		run := func(gap int64, noise time.Duration) grade.Run {
			asked := int64(2000)
			sc := &scenario.Scenario{Name: "ra", Grade: []string{"retry-after"}, Script: []scenario.Rule{{Respond: scenario.Respond{Status: 429}}}}
			return grade.Run{Scenario: sc, Noise: noise, Entries: []mockllm.Entry{
				{N: 1, Model: "primary", Status: 429, Kind: "rate_limit", Rule: 1, RetryAfterMS: &asked},
				{N: 2, Model: "primary", Status: 200, Kind: "ok", Rule: 1, GapMS: gap},
			}}
		}
		f := verdicts("retry-after", run(5100, 150*time.Millisecond))[0]
		Expect(f.Status).To(Equal(grade.Inconclusive), f.Evidence)
		f = verdicts("retry-after", run(5400, 150*time.Millisecond))[0]
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		f = verdicts("retry-after", run(1990, 150*time.Millisecond))[0]
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence) // a gap is an upper bound on the wait
	})
})

var _ = Describe("time counted from the client's first request", func() {
	It("gives a client slow to start the script's window all the same, and the card its start-up time", func() {
		sc := pack("t-slow-start", "recovers", "anthropic", "  - {when: {before: 1s}, respond: {status: 529}}\n  - {respond: {ok: true}}\n")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		runs, err := grade.Observe(ctx, []*scenario.Scenario{sc}, grade.Options{
			Command: []string{os.Args[0]}, Env: append(os.Environ(), fakeclient.Env+"=good", fakeclient.StartEnv+"=1500ms"), Timeout: 8 * time.Second,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(runs[0].Entries).NotTo(BeEmpty())
		Expect(runs[0].Entries[0].Status).To(Equal(529), "the first request is inside the window, 1.5 s after launch")
		Expect(runs[0].Entries[0].TimeMS).To(BeZero())
		Expect(runs[0].Startup).To(BeNumerically(">=", 1500*time.Millisecond))
		card := grade.NewCard([]string{"slow"}, runs, bounds)
		Expect(card.Runs[0].StartupMS).To(BeNumerically(">=", 1500))
		var out bytes.Buffer
		Expect(grade.WriteText(&out, card)).To(Succeed())
		Expect(out.String()).To(ContainSubstring("start-up"))
	})

	It("names a fault window the client's first scripted request missed, never a silent not reached", func() {
		sc := &scenario.Scenario{Name: "window", Grade: []string{"retry-after"}, Script: []scenario.Rule{
			{When: scenario.When{Before: scenario.Duration(2 * time.Second)}, Respond: scenario.Respond{Status: 429}},
			{Respond: scenario.Respond{OK: true}},
		}}
		r := grade.Run{Scenario: sc, Exit: 0, Startup: 300 * time.Millisecond, Entries: []mockllm.Entry{
			{N: 1, Model: "primary", Status: 400, Kind: "invalid_request"},
			{N: 2, Model: "primary", Status: 200, Kind: "ok", Rule: 2, GapMS: 4400, TimeMS: 4400},
		}}
		f := verdicts("retry-after", r)[0]
		Expect(f.Status).To(Equal(grade.NotReached))
		Expect(f.Evidence).To(ContainSubstring("first request at 4.4 s"))
		Expect(f.Evidence).To(ContainSubstring("its first 2 s, had closed"))
	})
})

var _ = Describe("the timing checks at their edges", func() {
	retried := func(gap int64, noise time.Duration) grade.Run {
		asked := int64(2000)
		sc := &scenario.Scenario{Name: "ra", Grade: []string{"retry-after"}, Script: []scenario.Rule{{Respond: scenario.Respond{Status: 429}}}}
		return grade.Run{Scenario: sc, Noise: noise, Entries: []mockllm.Entry{
			{N: 1, Model: "primary", Status: 429, Kind: "rate_limit", Rule: 1, RetryAfterMS: &asked},
			{N: 2, Model: "primary", Status: 200, Kind: "ok", Rule: 1, GapMS: gap},
		}}
	}
	DescribeTable("retry-after, asked for 2 s, with 30 ms of noise (a 50 ms margin)",
		func(gap int64, want grade.Status) {
			f := verdicts("retry-after", retried(gap, 30*time.Millisecond))[0]
			Expect(f.Status).To(Equal(want), f.Evidence)
		},
		Entry("a millisecond early", int64(1999), grade.Fail),
		Entry("exactly the wait", int64(2000), grade.Pass),
		Entry("exactly twice and a second", int64(5000), grade.Pass),
		Entry("over it by the margin", int64(5050), grade.Inconclusive),
		Entry("over it by a millisecond more", int64(5051), grade.Fail),
	)

	DescribeTable("bounded's time, 3 s, over 2 attempts with 30 ms of noise (a 50 ms margin each)",
		func(elapsed time.Duration, want grade.Status) {
			sc := &scenario.Scenario{Name: "b", Grade: []string{"bounded"}, Script: []scenario.Rule{{Respond: scenario.Respond{Status: 529}}}}
			r := grade.Run{Scenario: sc, Exit: 1, Elapsed: elapsed, Noise: 30 * time.Millisecond, Entries: []mockllm.Entry{
				{N: 1, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1},
				{N: 2, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1, GapMS: 1000, TimeMS: 1000},
			}}
			f := verdicts("bounded", r)[0]
			Expect(f.Status).To(Equal(want), f.Evidence)
		},
		Entry("exactly the bound", 3*time.Second, grade.Pass),
		Entry("over it by the noise of two attempts", 3100*time.Millisecond, grade.Inconclusive),
		Entry("over it by a millisecond more", 3101*time.Millisecond, grade.Fail),
	)

	It("backoff: two retries that doubled in both runs pass; one run's alone is too few", func() {
		for _, f := range verdicts("backoff", timed("a", "backoff", 0, 500, 1000), timed("b", "backoff", 0, 500, 1000)) {
			Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		}
		f := verdicts("backoff", timed("a", "backoff", 0, 500, 1000))[0]
		Expect(f.Status).To(Equal(grade.Inconclusive), f.Evidence)
		f = verdicts("backoff", timed("a", "backoff", 0, 500))[0]
		Expect(f.Status).To(Equal(grade.NotReached), f.Evidence)
	})
})
