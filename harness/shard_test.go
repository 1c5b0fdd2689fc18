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
)

// blindAndClassify are the two strategies these specs run: enough for a
// grid, and cheap under -race.
func blindAndClassify() []recovery.Strategy {
	GinkgoHelper()
	var out []recovery.Strategy
	for _, name := range []string{"blind", "classify"} {
		s, ok := recovery.Preset(name)
		Expect(ok).To(BeTrue(), name)
		out = append(out, s)
	}
	return out
}

var _ = Describe("shards", func() {
	DescribeTable("read K/N",
		func(in string, want harness.Shard) {
			got, err := harness.ParseShard(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
			Expect(got.String()).To(Equal(in))
		},
		Entry("the first of four", "1/4", harness.Shard{Index: 1, Count: 4}),
		Entry("the last of four", "4/4", harness.Shard{Index: 4, Count: 4}),
		Entry("the only one", "1/1", harness.Shard{Index: 1, Count: 1}),
	)

	DescribeTable("refuse what is not K/N with 1 <= K <= N",
		func(in string) {
			_, err := harness.ParseShard(in)
			Expect(err).To(HaveOccurred())
		},
		Entry("no slash", "2"), Entry("zero", "0/4"), Entry("past the end", "5/4"),
		Entry("no shards", "1/0"), Entry("zero of zero, the zero Shard", "0/0"), Entry("negative", "-1/4"), Entry("words", "two/four"), Entry("empty", ""),
	)

	It("cut any grid into contiguous slices that cover it once, within one of each other in size", func() {
		for jobs := range 40 {
			for n := 1; n <= 9; n++ {
				next, smallest, largest := 0, jobs, 0
				for k := 1; k <= n; k++ {
					first, end := harness.Shard{Index: k, Count: n}.Bounds(jobs)
					Expect(first).To(Equal(next), "shard %d/%d of %d", k, n, jobs)
					next = end
					smallest, largest = min(smallest, end-first), max(largest, end-first)
				}
				Expect(next).To(Equal(jobs))
				Expect(largest - smallest).To(BeNumerically("<=", 1))
			}
		}
		first, end := harness.Shard{}.Bounds(18)
		Expect([]int{first, end}).To(Equal([]int{0, 18}), "the zero Shard is the whole grid")
	})

	It("run slices whose results, laid end to end, are the unsharded run's, byte for byte", func() {
		scs, strategies := suite(), blindAndClassify()
		rep, err := harness.Run(context.Background(), scs, strategies, harness.Options{Seed: 11, Parallel: 1})
		Expect(err).NotTo(HaveOccurred())
		var whole bytes.Buffer
		Expect(reports.JSON(&whole, rep)).To(Succeed())
		var merged []ledger.Result
		for k := 1; k <= 4; k++ {
			rep, err := harness.Run(context.Background(), scs, strategies,
				harness.Options{Seed: 11, Parallel: 3, Shard: harness.Shard{Index: k, Count: 4}})
			Expect(err).NotTo(HaveOccurred())
			first, end := harness.Shard{Index: k, Count: 4}.Bounds(len(scs) * len(strategies))
			Expect(rep.Results).To(HaveLen(end - first))
			merged = append(merged, rep.Results...)
		}
		var buf bytes.Buffer
		Expect(reports.JSON(&buf, ledger.Report{Seed: 11, Results: merged})).To(Succeed())
		Expect(buf.String()).To(Equal(whole.String()))
	})

	It("refuse to run a shard that is not one", func() {
		_, err := harness.Run(context.Background(), suite(), blindAndClassify(), harness.Options{Shard: harness.Shard{Index: 3, Count: 2}})
		Expect(err).To(MatchError(ContainSubstring("shard 3/2")))
	})
})

var _ = Describe("progress", func() {
	It("is told of every run as it finishes, one call at a time, counting up to the total", func() {
		var seen []int
		total := 0
		shard := harness.Shard{Index: 2, Count: 3}
		rep, err := harness.Run(context.Background(), suite(), blindAndClassify(), harness.Options{Seed: 1, Parallel: 4, Shard: shard,
			Progress: func(done, n int) { seen = append(seen, done); total = n }})
		Expect(err).NotTo(HaveOccurred())
		Expect(total).To(Equal(len(rep.Results)))
		want := make([]int, total)
		for i := range want {
			want[i] = i + 1
		}
		Expect(seen).To(Equal(want))
	})
})
