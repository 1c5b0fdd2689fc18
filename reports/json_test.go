package reports

import (
	"bytes"
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
)

func renderJSON(rep ledger.Report) string {
	GinkgoHelper()
	var buf bytes.Buffer
	Expect(JSON(&buf, rep)).To(Succeed())
	return buf.String()
}

var _ = Describe("JSON", func() {
	var rep ledger.Report

	BeforeEach(func() {
		rep = fixtureReport()
	})

	// wholeJSON is the document encoded at once, as JSON wrote it before
	// it wrote the results one at a time.
	wholeJSON := func(rep ledger.Report, shard *Shard) string {
		out := document{Seed: rep.Seed, Shard: shard, Results: make([]ledger.Result, len(rep.Results))}
		if rep.Stopped != nil {
			out.Complete, out.Stopped = new(bool), rep.Stopped
		}
		for i, r := range rep.Results {
			if r.AttemptsLog == nil {
				r.AttemptsLog = []ledger.Attempt{}
			}
			if r.RepairLog == nil {
				r.RepairLog = []ledger.Attempt{}
			}
			out.Results[i] = r
		}
		if shard == nil {
			out.Verdicts, _ = Verdicts(rep)
		}
		b, err := indented(out)
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}

	It("writes the results one at a time, byte for byte the document encoded whole", func() {
		odd := fixtureReport()
		odd.Results[0].Reason = "<a & b>\n\"results\": []"
		odd.Stopped = &ledger.Stop{Cause: "interrupted\n  \"results\": []", Finished: 1, Runs: 9}
		for name, r := range map[string]ledger.Report{
			"the fixture": fixtureReport(), "no results": {Seed: 7}, "one result": {Seed: 7, Results: fixtureReport().Results[:1]},
			"odd texts, stopped": odd,
		} {
			Expect(renderJSON(r)).To(Equal(wholeJSON(r, nil)), name)
			var buf bytes.Buffer
			shard := Shard{Index: 1, Count: 2}
			Expect(ShardJSON(&buf, r, shard)).To(Succeed())
			Expect(buf.String()).To(Equal(wholeJSON(r, &shard)), name+", a shard")
		}
	})

	It("is byte-identical for equal input", func() {
		first := renderJSON(rep)
		Expect(renderJSON(rep)).To(Equal(first))
		Expect(renderJSON(fixtureReport())).To(Equal(first))
	})

	It("is one object with seed and results, indented two spaces, ending in a newline", func() {
		out := renderJSON(rep)
		Expect(out).To(HavePrefix("{\n  \"seed\": 42,\n  \"results\": [\n    {\n"))
		Expect(out).To(HaveSuffix("}\n"))
		Expect(out).NotTo(HaveSuffix("\n\n"))
	})

	It("carries every field docs/reports.md names", func() {
		var doc struct {
			Seed    uint64           `json:"seed"`
			Results []map[string]any `json:"results"`
		}
		Expect(json.Unmarshal([]byte(renderJSON(rep)), &doc)).To(Succeed())
		Expect(doc.Seed).To(Equal(uint64(42)))
		Expect(doc.Results).To(HaveLen(4))
		for _, key := range []string{"scenario", "strategy", "outcome", "attempts", "repair_calls", "wait_ms",
			"submitted_input_tokens", "repair_input_tokens", "output_tokens", "fallbacks",
			"compactions", "escalations", "steps", "attempts_log"} {
			Expect(doc.Results[0]).To(HaveKey(key))
		}
		entry := doc.Results[0]["attempts_log"].([]any)[0].(map[string]any)
		for _, key := range []string{"n", "model", "max_tokens", "input_tokens", "status", "kind", "wait_before_ms"} {
			Expect(entry).To(HaveKey(key))
		}
	})

	It("reads back as the report it was written from", func() {
		var back ledger.Report
		Expect(json.Unmarshal([]byte(renderJSON(rep)), &back)).To(Succeed())
		Expect(back.Seed).To(Equal(rep.Seed))
		Expect(back.Results).To(HaveLen(len(rep.Results)))
		Expect(back.Results[3]).To(Equal(rep.Results[3]))
	})

	It("writes empty logs as [] and never null", func() {
		rep.Results[0].AttemptsLog = nil
		rep.Results[0].RepairLog = nil
		rep.Results[1].RepairLog = []ledger.Attempt{}
		out := renderJSON(rep)
		Expect(out).NotTo(ContainSubstring("null"))
		Expect(strings.Count(out, `"attempts_log": []`)).To(Equal(1))
		Expect(strings.Count(out, `"repair_log": []`)).To(Equal(3))
	})

	It("leaves the report it was given alone", func() {
		rep.Results[0].RepairLog = nil
		renderJSON(rep)
		Expect(rep.Results[0].RepairLog).To(BeNil())
	})

	It("writes a report with no results as an empty list", func() {
		Expect(renderJSON(ledger.Report{Seed: 7})).To(Equal("{\n  \"seed\": 7,\n  \"results\": []\n}\n"))
	})

	It("does not escape HTML characters in names", func() {
		rep.Results[0].Reason = "<a & b>"
		Expect(renderJSON(rep)).To(ContainSubstring(`"reason": "<a & b>"`))
	})

	It("reports a failed write", func() {
		Expect(JSON(failingWriter{}, rep)).To(MatchError(errWrite))
	})
})
