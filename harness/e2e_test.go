package harness_test

import (
	"bytes"
	"context"
	"runtime"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/reports"
	"github.com/faultbench/faultbench/scenario"
)

// raceTurns is the most turns a default-suite workload runs under -race:
// 100. long-fleet's 1,000 turns (now scenarios-large/long-fleet-1000.yaml;
// the suite's long-fleet has 60), run by every preset in each of the specs
// below, took the package's -race run from about 95 s to 465 s on a
// shared 2-core machine; its code paths (the scheduler, the shared
// buckets, the connections of a fleet) are the same at 100 turns, and
// without -race the specs run it whole.
const raceTurns = 100

func suite() []*scenario.Scenario {
	scs, err := scenario.Load("../scenarios")
	Expect(err).NotTo(HaveOccurred())
	if raceDetector {
		for _, sc := range scs {
			sc.Workload.Turns = min(sc.Workload.Turns, raceTurns)
		}
	}
	return scs
}

func runSuite(opts harness.Options) (ledger.Report, []byte) {
	rep, err := harness.Run(context.Background(), suite(), recovery.Presets(), opts)
	Expect(err).NotTo(HaveOccurred())
	var buf bytes.Buffer
	Expect(reports.JSON(&buf, rep)).To(Succeed())
	return rep, buf.Bytes()
}

// seedOne is the default suite with every preset at seed 1, run once and
// read by the specs that only look at it: with a 1,000-turn workload in
// the suite, each run of it costs seconds, more under -race.
var seedOne = sync.OnceValues(func() (ledger.Report, error) {
	return harness.Run(context.Background(), suite(), recovery.Presets(), harness.Options{Seed: 1})
})

func seedOneSuite() ledger.Report {
	rep, err := seedOne()
	Expect(err).NotTo(HaveOccurred())
	return rep
}

func result(rep ledger.Report, sc, strategy string) ledger.Result {
	for _, r := range rep.Results {
		if r.Scenario == sc && r.Strategy == strategy {
			return r
		}
	}
	Fail("no result for " + sc + " × " + strategy)
	return ledger.Result{}
}

var _ = Describe("the default suite over loopback", func() {
	It("meets every budget its scenarios set, for every preset", func() {
		scs := suite()
		Expect(len(scs)).To(BeNumerically(">=", 8))
		rep := seedOneSuite()
		Expect(rep.Results).To(HaveLen(len(scs) * len(recovery.Presets())))
		violations, err := harness.Check(scs, rep.Results)
		Expect(err).NotTo(HaveOccurred())
		Expect(violations).To(BeEmpty())
	})

	// The suite's fleets among them: their turns share buckets, slots and
	// a scheduler, which is where an order could leak into the figures.
	It("gives the same bytes for the same seed at any parallelism and GOMAXPROCS", func() {
		var wide bytes.Buffer
		Expect(reports.JSON(&wide, seedOneSuite())).To(Succeed()) // the default parallelism
		Expect(wide.String()).To(ContainSubstring(`"workload"`))
		// Under -race, two schedules (the default parallelism, and 8
		// workers on one processor) are compared; the serial run, which
		// has no race to find, is the third without it.
		if !raceDetector {
			_, serial := runSuite(harness.Options{Seed: 1, Parallel: 1})
			Expect(wide.Bytes()).To(Equal(serial), "at --parallel 1")
		}
		prev := runtime.GOMAXPROCS(1)
		DeferCleanup(func() { runtime.GOMAXPROCS(prev) })
		_, single := runSuite(harness.Options{Seed: 1, Parallel: 8})
		Expect(single).To(Equal(wide.Bytes()), "at GOMAXPROCS=1, --parallel 8")
	})

	It("shows blind paying the whole backoff schedule where classify stops or switches", func() {
		rep := seedOneSuite()
		blind := result(rep, "overloaded-then-backup", "blind")
		Expect(blind.Outcome).To(Equal(ledger.OutcomeFailed))
		Expect(blind.WaitMS).To(Equal(int64(31000)))
		classify := result(rep, "overloaded-then-backup", "classify")
		Expect(classify.Outcome).To(Equal(ledger.OutcomeSuccess))
		Expect(classify.Fallbacks).To(Equal(1))
		Expect(classify.AttemptsLog[3].Model).To(Equal("backup"))
		Expect(classify.AttemptsLog[3].WaitBeforeMS).To(BeZero())

		trunc := result(rep, "truncated-answer", "blind")
		Expect(trunc.Outcome).To(Equal(ledger.OutcomeTruncated))
	})

	It("counts the declared sizes exactly, as the mock does", func() {
		rep := seedOneSuite()
		first := result(rep, "overloaded-then-backup", "blind").AttemptsLog[0]
		Expect(first.InputTokens).To(Equal(104000))
		compacted := result(rep, "context-overflow-compaction", "classify")
		Expect(compacted.RepairLog).To(HaveLen(1))
		Expect(compacted.AttemptsLog[1].InputTokens).To(BeNumerically("<", 100000))
	})
})
