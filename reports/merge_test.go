package reports

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/ledger"
)

// shardsOf cuts rep's results as run --shard K/N does and reads each back
// from its JSON, as merge reads files.
func shardsOf(rep ledger.Report, n int) []Part {
	GinkgoHelper()
	jobs := len(rep.Results)
	var parts []Part
	for k := 1; k <= n; k++ {
		first, end := (k-1)*jobs/n, k*jobs/n
		slice := ledger.Report{Seed: rep.Seed, Results: rep.Results[first:end]}
		var buf bytes.Buffer
		Expect(ShardJSON(&buf, slice, Shard{Index: k, Count: n, First: first, Jobs: jobs})).To(Succeed())
		back, shard, err := ReadJSON(&buf)
		Expect(err).NotTo(HaveOccurred())
		parts = append(parts, Part{Name: "shard-" + string(rune('0'+k)) + ".json", Report: back, Shard: shard})
	}
	return parts
}

var _ = Describe("shards", func() {
	It("write where they sit in the grid between seed and results", func() {
		var buf bytes.Buffer
		Expect(ShardJSON(&buf, ledger.Report{Seed: 3}, Shard{Index: 2, Count: 4, First: 4, Jobs: 18})).To(Succeed())
		Expect(buf.String()).To(Equal("{\n  \"seed\": 3,\n  \"shard\": {\n    \"index\": 2,\n    \"count\": 4,\n" +
			"    \"first\": 4,\n    \"jobs\": 18\n  },\n  \"results\": []\n}\n"))
	})

	It("read back as the report and shard they were written from", func() {
		var buf bytes.Buffer
		Expect(JSON(&buf, fixtureReport())).To(Succeed())
		rep, shard, err := ReadJSON(&buf)
		Expect(err).NotTo(HaveOccurred())
		Expect(shard).To(BeNil())
		Expect(rep.Results).To(HaveLen(4))
		Expect(rep.Results[3]).To(Equal(fixtureReport().Results[3]))
	})

	DescribeTable("merge back into the unsharded JSON, byte for byte, in any order",
		func(n int, reverse bool) {
			var whole, merged bytes.Buffer
			Expect(JSON(&whole, fixtureReport())).To(Succeed())
			parts := shardsOf(fixtureReport(), n)
			if reverse {
				for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
					parts[i], parts[j] = parts[j], parts[i]
				}
			}
			rep, err := Merge(parts)
			Expect(err).NotTo(HaveOccurred())
			Expect(JSON(&merged, rep)).To(Succeed())
			Expect(merged.String()).To(Equal(whole.String()))
		},
		Entry("one shard", 1, false),
		Entry("two shards", 2, false),
		Entry("four shards, reversed", 4, true),
		Entry("more shards than runs, some empty", 6, true),
	)

	It("joins whole reports in the order given", func() {
		rep := fixtureReport()
		a := Part{Name: "a.json", Report: ledger.Report{Seed: 42, Results: rep.Results[:1]}}
		b := Part{Name: "b.json", Report: ledger.Report{Seed: 42, Results: rep.Results[1:]}}
		merged, err := Merge([]Part{a, b})
		Expect(err).NotTo(HaveOccurred())
		Expect(merged).To(Equal(rep))
	})

	DescribeTable("refuse what is not one run",
		func(mangle func([]Part) []Part, want string) {
			_, err := Merge(mangle(shardsOf(fixtureReport(), 4)))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("nothing", func([]Part) []Part { return nil }, "no reports"),
		Entry("a shard missing", func(p []Part) []Part { return append(p[:1], p[2:]...) }, "shards [2] of 4 missing"),
		Entry("a shard twice", func(p []Part) []Part { return append(p, p[0]) }, "are both shard 1/4"),
		Entry("another seed", func(p []Part) []Part { p[2].Report.Seed = 9; return p }, "has seed 9"),
		Entry("another grid", func(p []Part) []Part { p[1].Shard.Jobs = 8; return p }, "not one run"),
		Entry("a short slice", func(p []Part) []Part {
			p[3].Report.Results = p[3].Report.Results[:0]
			return p
		}, "holds 0 results from position 3"),
		Entry("shards and whole reports", func(p []Part) []Part { p[0].Shard = nil; return p }, "some reports are shards"),
		Entry("a result twice", func(p []Part) []Part {
			for i := range p {
				p[i].Shard = nil
			}
			return append(p, p[0])
		}, "is in both"),
	)

	DescribeTable("ReadJSON refuses what is not a report",
		func(in, want string) {
			_, _, err := ReadJSON(strings.NewReader(in))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("not JSON", "seed: 1", "not a faultbench JSON report"),
		Entry("no results", `{"seed": 1}`, `want an object with "seed" and "results"`),
		Entry("no seed", `{"results": []}`, `want an object with "seed" and "results"`),
		Entry("trailing data", `{"seed": 1, "results": []} {}`, "not a faultbench JSON report"),
		Entry("results of the wrong type", `{"seed": 1, "results": {}}`, "not a faultbench JSON report"),
	)
})
