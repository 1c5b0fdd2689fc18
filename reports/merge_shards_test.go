package reports

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = DescribeTable("merge refuses a run with a shard missing, wherever it is",
	func(n int, keep []int, want string) {
		all := shardsOf(fixtureReport(), n)
		var parts []Part
		for _, k := range keep {
			parts = append(parts, all[k-1])
		}
		_, err := Merge(parts)
		Expect(err).To(MatchError(ContainSubstring(want)))
	},
	Entry("the first", 4, []int{2, 3, 4}, "shards [1] of 4 missing"),
	Entry("a middle one", 4, []int{1, 3, 4}, "shards [2] of 4 missing"),
	Entry("the last", 4, []int{1, 2, 3}, "shards [4] of 4 missing"),
	Entry("shard 1/2 alone", 2, []int{1}, "shards [2] of 2 missing"),
)
