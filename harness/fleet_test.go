package harness_test

import (
	"bytes"
	"context"
	"runtime"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("a workload", func() {
	herd := func(opts harness.Options) (ledger.Report, []byte) {
		scs, err := scenario.Load("../scenarios/thundering-herd.yaml")
		Expect(err).NotTo(HaveOccurred())
		rep, err := harness.Run(context.Background(), scs, recovery.Presets(), opts)
		Expect(err).NotTo(HaveOccurred()) // every turn's record equals its session's journal
		var buf bytes.Buffer
		Expect(reports.JSON(&buf, rep)).To(Succeed())
		return rep, buf.Bytes()
	}

	It("gives the same bytes at any parallelism and GOMAXPROCS", func() {
		_, serial := herd(harness.Options{Seed: 5, Parallel: 1})
		_, wide := herd(harness.Options{Seed: 5, Parallel: 8})
		Expect(wide).To(Equal(serial))
		prev := runtime.GOMAXPROCS(1)
		DeferCleanup(func() { runtime.GOMAXPROCS(prev) })
		_, single := herd(harness.Options{Seed: 5})
		Expect(single).To(Equal(serial))
	})

	It("shares the bucket among the turns: ten admitted at once, the rest refused, turns overlapping", func() {
		rep, _ := herd(harness.Options{Seed: 5})
		r := result(rep, "thundering-herd", "classify")
		w := r.Workload
		Expect(w).NotTo(BeNil())
		Expect(w.Turns).To(Equal(20))
		Expect(w.Succeeded + w.Failed).To(Equal(20))
		Expect(w.Status429).To(BeNumerically(">=", 10))
		Expect(w.Attempts).To(Equal(r.Attempts))
		Expect(w.WastedInputTokens).To(Equal(w.Status429 * r.AttemptsLog[0].InputTokens))
		// The first ten answers take 3s each, all in flight together.
		Expect(w.P50MS).To(BeNumerically(">=", 3000))
		Expect(w.MakespanMS).To(BeNumerically("<", int64(3000*w.Succeeded)))
		first := map[int]int{} // turn → status of its first attempt
		for _, a := range r.AttemptsLog {
			Expect(a.Turn).To(BeNumerically(">=", 1))
			if _, seen := first[a.Turn]; !seen {
				first[a.Turn] = a.Status
			}
		}
		for turn := 1; turn <= 20; turn++ {
			want := 200
			if turn > 10 {
				want = 429
			}
			Expect(first[turn]).To(Equal(want), "turn %d", turn)
		}
	})
})
