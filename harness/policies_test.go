package harness_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// The cross-turn policies on the fleet scenarios, against classify, which
// has none: the figures the README and docs/strategies.md quote.
var _ = Describe("the cross-turn policies on a fleet", func() {
	fleet := func(path string) map[string]*ledger.Workload {
		scs, err := scenario.Load(path)
		Expect(err).NotTo(HaveOccurred())
		rep, err := harness.Run(context.Background(), scs,
			[]recovery.Strategy{recovery.Classifying(), recovery.ClassifyFleet()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		out := map[string]*ledger.Workload{}
		for _, r := range rep.Results {
			Expect(r.Workload).NotTo(BeNil())
			out[r.Strategy] = r.Workload
		}
		return out
	}

	It("queue the thundering herd behind the bucket: one 429, where classify pays forty", func() {
		w := fleet("../scenarios/thundering-herd.yaml")
		Expect(w["classify-fleet"].Succeeded).To(Equal(20))
		Expect(w["classify-fleet"].Attempts).To(Equal(21))
		Expect(w["classify-fleet"].Status429).To(Equal(1)) // the one that taught the limiter
		Expect(w["classify"].Status429).To(BeNumerically(">=", 30))
	})

	It("stop feeding an overload storm: the breaker sends the fleet to the backup after three 529s", func() {
		w := fleet("../scenarios/overload-storm.yaml")
		Expect(w["classify-fleet"].Succeeded).To(Equal(24))
		Expect(w["classify-fleet"].Status529).To(Equal(3))
		Expect(w["classify"].Status529).To(BeNumerically(">=", 48)) // three per agent that met the storm
		Expect(w["classify-fleet"].WastedInputTokens).To(BeNumerically("<", w["classify"].WastedInputTokens/10))
	})
})
