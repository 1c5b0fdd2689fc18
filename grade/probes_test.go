package grade_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/scenario"
)

// probing runs the Python probe client (testdata/probes/layers.py) with
// policy on the scenarios and returns the findings of check; it skips
// where python3 is not on the PATH, and says so.
func probing(policy, check string, scs ...*scenario.Scenario) []grade.Finding {
	python, err := exec.LookPath("python3")
	if err != nil {
		Skip("no python3 on PATH: the probe clients of the " + check + " check are Python")
	}
	probe, err := filepath.Abs(filepath.Join("testdata", "probes", "layers.py"))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	runs, err := grade.Observe(ctx, scs, grade.Options{Command: []string{python, probe, policy}, Timeout: 20 * time.Second, Parallel: 4})
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var out []grade.Finding
	for _, f := range grade.Judge(runs, bounds) {
		if f.Check == check {
			out = append(out, f)
		}
	}
	ExpectWithOffset(1, out).To(HaveLen(len(scs)))
	return out
}

// streamed is a scenario of the stream-error check: a stream whose first
// answer ends in an error event after the given events, then answers.
func streamed(name string, after string) *scenario.Scenario {
	sc := pack(name, "stream-error", "anthropic", "  - {times: 1, respond: {fault: {error_after: "+after+"}}}\n  - {respond: {ok: true}}")
	sc.Turn.Stream, sc.Turn.AnswerTokens = true, 200
	return sc
}

var _ = DescribeTable("the layers, stream-error and budget checks, against a probe client that passes and one that fails",
	func(check string, sc func() *scenario.Scenario, good, bad, success, failure string) {
		s := sc()
		f := probing(good, check, s)[0]
		Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring(success))
		f = probing(bad, check, s)[0]
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring(failure))
	},
	Entry("layers: one loop, and an app loop of 3 around an SDK loop of 2 retries", "layers",
		func() *scenario.Scenario {
			return pack("t-layers", "layers", "anthropic", `  - {respond: {status: 529}}`)
		},
		"one", "two", "1 layer: 4 attempts", "2 layers: 3 × 3 = 9 attempts on a persistent 529"),
	Entry("stream-error before any output: resent, or given up", "stream-error",
		func() *scenario.Scenario { return streamed("t-stream-before", "1") },
		"safe", "giveup", "resent after the overloaded_error event that came before any output", "gave up after the overloaded_error event that came before any output"),
	Entry("stream-error after output: stopped, or the half answer claimed", "stream-error",
		func() *scenario.Scenario { return streamed("t-stream-after", "5") },
		"safe", "claims", "stopped after the overloaded_error event that came once", "reported success on half an answer"),
	Entry("budget: Anthropic's 400 usage limit", "budget",
		func() *scenario.Scenario {
			return pack("t-budget-anthropic", "budget", "anthropic", `  - {respond: {status: 400, message: "You have reached your specified API usage limits. You will regain access on 2027-01-01 at 00:00 (UTC)."}}`)
		},
		"one", "naive", "stopped after the 400", "retried a spent budget"),
	Entry("budget: OpenRouter's 402 in its own envelope", "budget",
		func() *scenario.Scenario {
			return pack("t-budget-openrouter", "budget", "openai", `  - {respond: {status: 402, body: '{"error":{"message":"Insufficient credits","code":402,"metadata":{"limit_source":"openrouter_credits"}}}'}}`)
		},
		"one", "naive", "stopped after the 402 quota_exhausted", "retried a spent budget"),
)

var _ = Describe("the stream-error check on a resend after output", func() {
	It("passes it, and says the resend is safe only if the partial answer was thrown away", func() {
		f := probing("resend", "stream-error", streamed("t-stream-resend", "5"))[0]
		Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring("safe only if the client threw that partial answer away"))
	})
})
