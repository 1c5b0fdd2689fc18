package harness_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// A rule that answers normally is rate-limited as a real API limits a
// normal answer: the twenty agents of thundering-herd, with the catch-all
// `respond: {ok: true}` a user writes to mean "a normal answer", meet the
// same 429s as without it.
var _ = Describe("quotas answer every normal answer", func() {
	herd := func(rules ...scenario.Rule) int {
		scs, err := scenario.Load("../scenarios/thundering-herd.yaml")
		Expect(err).NotTo(HaveOccurred())
		sc := scs[0]
		sc.Script = append(sc.Script, rules...)
		rep, err := harness.Run(context.Background(), []*scenario.Scenario{sc}, []recovery.Strategy{recovery.Classifying()}, harness.Options{Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Results).To(HaveLen(1))
		Expect(rep.Results[0].Workload).NotTo(BeNil())
		return rep.Results[0].Workload.Status429
	}

	It("meets the bucket's 429s with a catch-all ok rule, as without it", func() {
		plain := herd()
		Expect(plain).To(BeNumerically(">", 0))
		Expect(herd(scenario.Rule{Respond: scenario.Respond{OK: true}})).To(Equal(plain))
	})

	It("lets a scripted error answer first, without paying the bucket", func() {
		// Every request is a 503: the bucket never refuses one.
		Expect(herd(scenario.Rule{Respond: scenario.Respond{Status: 503}})).To(Equal(0))
	})
})
