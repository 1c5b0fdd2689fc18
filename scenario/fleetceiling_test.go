package scenario_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("A workload's ceilings", func() {
	fleet := func(turns, concurrency int) error {
		_, err := scenario.Parse("f.yaml", minimal(fmt.Sprintf("workload: {turns: %d, concurrency: %d}\n", turns, concurrency)))
		return err
	}

	It("takes 1,000 turns, all in flight", func() {
		Expect(fleet(scenario.MaxTurns, scenario.MaxConcurrency)).To(Succeed())
		Expect(scenario.MaxTurns).To(Equal(1000))
	})

	It("refuses a turn or a slot more, naming the ceiling", func() {
		Expect(fleet(1001, 1)).To(MatchError(ContainSubstring("f.yaml:5:12: workload.turns: must be between 1 and 1000, got 1001")))
		Expect(fleet(10, 1001)).To(MatchError(ContainSubstring("workload.concurrency: must be between 0 (one at a time) and 1000, got 1001")))
	})
})
