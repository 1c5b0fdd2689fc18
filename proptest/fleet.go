package proptest

import (
	"fmt"
	"sort"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// AdmitsWithinQuota: over any window of virtual time, the mock admits no
// more requests, input tokens or output tokens than a bucket's capacity
// plus what it refills in the window (the limit per minute, pro rata),
// whatever the strategy sends. A strategy cannot break it; a mock that
// refills too fast or lets a request overdraw can.
func AdmitsWithinQuota(strategies ...recovery.Strategy) func(*rapid.T) {
	return func(t *rapid.T) {
		sc := FleetScenario(0).Draw(t, "fleet")
		rep := Run(t, sc, strategies...)
		limits := sc.Models["primary"].Limits
		for _, r := range rep.Results {
			if err := withinQuota(r.AttemptsLog, "primary", limits); err != nil {
				t.Fatalf("%s: %v", r.Strategy, err)
			}
		}
	}
}

// withinQuota checks the admitted attempts of a log on model (status 200: in a
// generated fleet every other answer is a bucket's 429 or a capacity's
// 529) against limits: for every window [a, b] between two admissions,
// each bucket paid at most its limit plus limit × (b − a) ÷ 1 minute. An
// attempt was admitted when it was sent: at_ms less duration_ms. The
// output bucket is checked only when no answer took time: it is charged
// the output tokens at once then, while an answer in flight holds its
// whole max_tokens until it ends.
func withinQuota(log []ledger.Attempt, model string, limits scenario.RateLimits) error {
	var admitted []ledger.Attempt
	timed := false
	for _, a := range log {
		if a.Status == 200 && a.Model == model {
			a.AtMS -= a.DurationMS
			timed = timed || a.DurationMS > 0
			admitted = append(admitted, a)
		}
	}
	if timed {
		limits.OTPM = 0
	}
	sort.SliceStable(admitted, func(i, j int) bool { return admitted[i].AtMS < admitted[j].AtMS })
	buckets := []struct {
		name  string
		limit int
		cost  func(ledger.Attempt) int
	}{
		{"requests", limits.RPM, func(ledger.Attempt) int { return 1 }},
		{"input tokens", limits.ITPM, func(a ledger.Attempt) int { return a.InputTokens }},
		{"output tokens", limits.OTPM, func(a ledger.Attempt) int { return a.OutputTokens }},
	}
	for _, b := range buckets {
		if b.limit == 0 {
			continue
		}
		for i := range admitted {
			paid := 0
			for j := i; j < len(admitted); j++ {
				paid += b.cost(admitted[j])
				// at_ms and duration_ms are whole milliseconds, each cut
				// down: a send time may be up to 2 ms early, so the true
				// span is up to 2 ms longer than the log's.
				span := admitted[j].AtMS - admitted[i].AtMS + 2
				// paid ≤ limit + limit × span ÷ 60,000 ms, in integers.
				if int64(paid-b.limit)*60000 > int64(b.limit)*span {
					return fmt.Errorf("%d %s admitted in %d ms (attempts at %d..%d ms): more than the %d a minute bucket holds and refills",
						paid, b.name, span-2, admitted[i].AtMS, admitted[j].AtMS, b.limit)
				}
			}
		}
	}
	return nil
}

// SameSeedSameFleet: a workload's JSON is byte-identical for the same
// seed whatever the parallelism, although its turns share one engine, one
// clock and one set of buckets.
func SameSeedSameFleet(strategies ...recovery.Strategy) func(*rapid.T) {
	return func(t *rapid.T) {
		sameBytes(t, FleetScenario(0).Draw(t, "fleet"), strategies, 1, 4)
	}
}
