package grade_test

import (
	"context"
	"fmt"
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/internal/fakeclient"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// pack is a scenario for one check, with the given wire and script.
func pack(name, check, wire, script string) *scenario.Scenario {
	fallback := ""
	if check == "fallback" {
		fallback = "backup"
	}
	text := fmt.Sprintf(`name: %s
description: a scenario of the %s check
grade: [%s]
models:
  primary: {context_window: 200000, max_output: 32000}
  backup: {context_window: 200000, max_output: 32000}
aliases: {any: primary}
turn:
  model: primary
  fallback: [%s]
  wire: %s
  max_tokens: 1024
  messages: [{count: 1, tokens: 10}]
  answer_tokens: 10
script:
%s`, name, check, check, fallback, wire, script)
	sc, err := scenario.Parse(name+".yaml", []byte(text))
	ExpectWithOffset(2, err).NotTo(HaveOccurred())
	return sc
}

// grading runs the fake client with policy on the scenarios and returns
// the findings of check.
func grading(policy, check string, b grade.Bounds, scs ...*scenario.Scenario) []grade.Finding {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	runs, err := grade.Observe(ctx, scs, grade.Options{
		Command: []string{os.Args[0]}, Env: append(os.Environ(), fakeclient.Env+"="+policy),
		Timeout: 4 * time.Second, Parallel: 4,
	})
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var out []grade.Finding
	for _, f := range grade.Judge(runs, b) {
		if f.Check == check {
			out = append(out, f)
		}
	}
	ExpectWithOffset(1, out).To(HaveLen(len(scs)))
	return out
}

var bounds = grade.Bounds{Attempts: 8, Time: 3 * time.Second}

var _ = DescribeTable("each check, against a client that passes it and one that fails it",
	func(check, script, wire, good, bad, failure string) {
		sc := pack("t-"+check, check, wire, script)
		f := grading(good, check, bounds, sc)[0]
		Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		f = grading(bad, check, bounds, sc)[0]
		Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring(failure))
	},
	Entry(nil, "retry-after", `  - {times: 1, respond: {status: 429, headers: {retry-after: "1"}}}`, "anthropic",
		"good", "naive", "asked for 1 s"),
	Entry(nil, "retry-after-ms", `  - {times: 1, respond: {status: 429, headers: {retry-after-ms: "300", retry-after: ""}}}`, "openai",
		"good", "naive", "asked for 0.3 s"),
	Entry(nil, "should-retry-false", `  - {times: 1, respond: {status: 500, headers: {x-should-retry: "false"}}}`, "anthropic",
		"good", "naive", "after the 500 server"),
	Entry(nil, "permanent", `  - {times: 1, respond: {status: 400}}`, "anthropic",
		"good", "naive", "the same body again"),
	Entry("permanent, a 403", "permanent", `  - {respond: {status: 403}}`, "openai",
		"good", "naive", "after the 403 permission"),
	Entry("permanent, a 404 for the model", "permanent", `  - {respond: {status: 404, message: "model: primary"}}`, "anthropic",
		"good", "naive", "after the 404 not_found"),
	Entry("permanent, a 429 insufficient_quota", "permanent", `  - {respond: {status: 429, type: insufficient_quota, message: "You exceeded your current quota, please check your plan and billing details."}}`, "openai",
		"good", "naive", "after the 429 quota_exhausted"),
	Entry(nil, "bounded", `  - {respond: {status: 529}}`, "anthropic",
		"good", "naive", "over the bound of 8"),
	Entry(nil, "backoff", `  - {respond: {status: 529}}`, "openai",
		"good", "naive", "retried at once"),
	Entry(nil, "recovers", `  - {times: 2, respond: {status: 529}}`, "anthropic",
		"good", "once", "the last answer was 529 overloaded"),
	Entry(nil, "stream-restarts", `  - {respond: {fault: {cut_after: 2}}}`, "anthropic",
		"good", "naive", "over the bound of 8"),
	Entry(nil, "hang", `  - {times: 1, respond: {fault: hang}}`, "anthropic",
		"good", "naive", "still open after 4 s"),
	Entry(nil, "overflow", "  - {times: 1, respond: {status: 400, message: \"input length and `max_tokens` exceed context limit: 190000 + 32000 > 200000\"}}", "anthropic",
		"good", "naive", "resent the request unchanged"),
	Entry(nil, "fallback", `  - {when: {model: primary}, respond: {status: 529}}`, "anthropic",
		"good", "naive", "all to primary"),
	// The Gemini wire: the wait is in RetryInfo alone, the overload a 503,
	// the window the input's alone.
	Entry("retry-after, Gemini's RetryInfo", "retry-after", `  - {times: 1, respond: {status: 429, quota: per_minute, retry_delay: 1s}}`, "gemini",
		"good", "naive", "asked for 1 s"),
	Entry("recovers, Gemini", "recovers", `  - {times: 2, respond: {status: 503}}`, "gemini",
		"good", "once", "the last answer was 503 overloaded"),
	Entry("overflow, Gemini", "overflow", `  - {times: 1, respond: {status: 400, message: "The input token count (190000) exceeds the maximum number of tokens allowed (131072)."}}`, "gemini",
		"good", "clamp", "on Gemini only less input fits"),
)

var _ = Describe("a side request before the scenario's first", func() {
	It("is not taken for the client's answer to the scenario's fault, and a models listing is counted as a stray", func() {
		sc := pack("t-side", "permanent", "anthropic", `  - {times: 1, respond: {status: 400}}`)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		runs, err := grade.Observe(ctx, []*scenario.Scenario{sc}, grade.Options{
			Command: []string{os.Args[0]}, Env: append(os.Environ(), fakeclient.Env+"=side"), Timeout: 4 * time.Second,
		})
		Expect(err).NotTo(HaveOccurred())
		f := grade.Judge(runs, bounds)[0]
		Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring("stopped after the 400 invalid_request"))
		card := grade.NewCard([]string{"side"}, runs, bounds)
		Expect(card.Runs[0].Attempts).To(Equal(2)) // the refused side request, then the turn
		Expect(card.Runs[0].Strays).To(Equal(1))   // GET v1/models
	})
})

// journal is a session's entries with these gaps after failures: every
// request fails (529), answered by the script's rule 1.
func journal(name string, gaps ...int64) grade.Run {
	sc := &scenario.Scenario{Name: name, Grade: []string{"jitter"}, Script: []scenario.Rule{{Respond: scenario.Respond{Status: 529}}}}
	es := []mockllm.Entry{{N: 1, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1}}
	for i, g := range gaps {
		es = append(es, mockllm.Entry{N: i + 2, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1, GapMS: g})
	}
	return grade.Run{Scenario: sc, Entries: es, Exit: 1}
}

var _ = Describe("the jitter check", func() {
	It("fails an exact schedule that is the same in every run, and passes one that is not", func() {
		exact := grade.Judge([]grade.Run{journal("a", 500, 1000, 2000, 4000), journal("b", 503, 1004, 2010, 4003)}, bounds)
		for _, f := range exact {
			Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
		}
		random := grade.Judge([]grade.Run{journal("a", 430, 910, 1300), journal("b", 480, 760, 1900)}, bounds)
		for _, f := range random {
			Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		}
		within := grade.Judge([]grade.Run{journal("a", 400, 1000, 1500, 4000, 5200, 14000)}, bounds)
		Expect(within[0].Status).To(Equal(grade.Pass), within[0].Evidence)
		// four gaps, one of which may be a hiccup: not enough to tell
		short := grade.Judge([]grade.Run{journal("a", 400, 1000, 1500, 4000)}, bounds)
		Expect(short[0].Status).To(Equal(grade.Inconclusive), short[0].Evidence)
		Expect(grade.Judge([]grade.Run{journal("a", 500)}, bounds)[0].Status).To(Equal(grade.NotReached))
	})

	It("passes a client whose waits are random, and fails one on an exact schedule", func() {
		a := pack("t-jitter-a", "jitter", "anthropic", `  - {respond: {status: 529}}`)
		b := pack("t-jitter-b", "jitter", "anthropic", `  - {respond: {status: 529}}`)
		for _, f := range grading("jittery", "jitter", bounds, a, b) {
			Expect(f.Status).To(Equal(grade.Pass), f.Evidence)
		}
		for _, f := range grading("naive", "jitter", bounds, a, b) {
			Expect(f.Status).To(Equal(grade.Fail), f.Evidence)
			Expect(f.Evidence).To(ContainSubstring("retry in step"))
		}
	})
})
