package grade_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// overloads is a session of 529s with these retry counts (nil: no
// header) and these gaps before the attempts after the first.
func overloads(counts []int, gaps ...int64) grade.Run {
	sc := &scenario.Scenario{Name: "l", Grade: []string{"layers"}, Script: []scenario.Rule{{Respond: scenario.Respond{Status: 529}}}}
	es := make([]mockllm.Entry, len(gaps)+1)
	for i := range es {
		es[i] = mockllm.Entry{N: i + 1, Model: "primary", Status: 529, Kind: "overloaded", Rule: 1}
		if i > 0 {
			es[i].GapMS = gaps[i-1]
		}
		if counts != nil {
			es[i].RetryCount = &counts[i]
		}
	}
	return grade.Run{Scenario: sc, Entries: es, Exit: 1}
}

var _ = DescribeTable("the layers check, from a journal",
	func(run grade.Run, status grade.Status, evidence string) {
		f := grade.Judge([]grade.Run{run}, bounds)[0]
		Expect(f.Status).To(Equal(status), f.Evidence)
		Expect(f.Evidence).To(ContainSubstring(evidence))
	},
	Entry("retry counts that start over: two layers", overloads([]int{0, 1, 2, 0, 1, 2}, 50, 100, 600, 50, 100),
		grade.Fail, "2 layers: 2 × 3 = 6 attempts on a persistent 529 overloaded (X-Stainless-Retry-Count 0, 1, 2, 0, 1, 2"),
	Entry("a last round cut short", overloads([]int{0, 1, 2, 0, 1, 2, 0, 1}, 50, 100, 600, 50, 100, 600, 50),
		grade.Fail, "2 layers: 3 rounds of 3, 3, 2 = 8 attempts"),
	Entry("counts that rise: one layer", overloads([]int{0, 1, 2, 3}, 50, 100, 200),
		grade.Pass, "1 layer: 4 attempts"),
	Entry("every count 0, an SDK with its retries off under an app's loop: one layer", overloads([]int{0, 0, 0, 0}, 500, 1000, 2000),
		grade.Pass, "1 layer: 4 attempts"),
	Entry("no header, a backoff that starts over three times: two layers", overloads(nil, 50, 100, 900, 50, 100, 900, 50, 100),
		grade.Fail, "2 layers: 3 × 3 = 9 attempts"),
	Entry("no header, a backoff that grows: one layer", overloads(nil, 500, 1000, 2000, 4000),
		grade.Pass, "the gaps show no backoff that starts over"),
	Entry("no header, a random wait that falls by half once: one layer", overloads(nil, 400, 900, 200, 800, 1600),
		grade.Pass, "1 layer: 6 attempts"),
)
