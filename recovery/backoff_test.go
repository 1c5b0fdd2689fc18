package recovery_test

import (
	"math"
	"math/rand/v2"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery"
)

var _ = Describe("Backoff", func() {
	DescribeTable("Delay without jitter",
		func(b recovery.Backoff, retry int, want time.Duration) {
			Expect(b.Delay(retry, nil)).To(Equal(want))
			lo, hi := b.Bounds(retry)
			Expect(lo).To(Equal(want))
			Expect(hi).To(Equal(want))
		},
		Entry("zero value: 1 s base", recovery.Backoff{}, 0, time.Second),
		Entry("zero value: doubling", recovery.Backoff{}, 3, 8*time.Second),
		Entry("negative retry counts as the first", recovery.Backoff{}, -2, time.Second),
		Entry("500 ms base", recovery.Backoff{Base: 500 * time.Millisecond, Factor: 2}, 0, 500*time.Millisecond),
		Entry("500 ms doubling, retry 6", recovery.Backoff{Base: 500 * time.Millisecond, Factor: 2}, 6, 32*time.Second),
		Entry("factor 3", recovery.Backoff{Base: time.Second, Factor: 3}, 2, 9*time.Second),
		Entry("under the cap", recovery.Backoff{Base: 500 * time.Millisecond, Cap: 32 * time.Second}, 5, 16*time.Second),
		Entry("at the cap", recovery.Backoff{Base: 500 * time.Millisecond, Cap: 32 * time.Second}, 7, 32*time.Second),
		Entry("far past the cap", recovery.Backoff{Base: 500 * time.Millisecond, Cap: 32 * time.Second}, 1000, 32*time.Second),
		Entry("no cap, huge retry, no overflow", recovery.Backoff{}, 1000, time.Duration(float64(math.MaxInt64/2))),
		Entry("SDK default: 0.5 s doubling capped at 8 s", recovery.Backoff{Base: 500 * time.Millisecond, Cap: 8 * time.Second}, 5, 8*time.Second),
	)

	DescribeTable("Bounds of each jitter mode",
		func(b recovery.Backoff, lo, hi time.Duration) {
			gotLo, gotHi := b.Bounds(0)
			Expect(gotLo).To(Equal(lo))
			Expect(gotHi).To(Equal(hi))
		},
		Entry("none", recovery.Backoff{Jitter: recovery.JitterNone}, time.Second, time.Second),
		Entry("positive, default 25 %", recovery.Backoff{Jitter: recovery.JitterPositive}, time.Second, 1250*time.Millisecond),
		Entry("negative, default 25 %", recovery.Backoff{Jitter: recovery.JitterNegative}, 750*time.Millisecond, time.Second),
		Entry("symmetric 10 %", recovery.Backoff{Jitter: recovery.JitterSymmetric, JitterRatio: 0.1}, 900*time.Millisecond, 1100*time.Millisecond),
		Entry("full", recovery.Backoff{Jitter: recovery.JitterFull}, time.Duration(0), time.Second),
	)

	DescribeTable("jittered delays stay within Bounds",
		func(b recovery.Backoff) {
			r := rand.New(rand.NewPCG(1, 2))
			for retry := range 12 {
				lo, hi := b.Bounds(retry)
				seen := map[time.Duration]bool{}
				for range 200 {
					d := b.Delay(retry, r)
					Expect(d).To(BeNumerically(">=", lo), "retry %d", retry)
					Expect(d).To(BeNumerically("<=", hi), "retry %d", retry)
					seen[d] = true
				}
				if b.Jitter != recovery.JitterNone {
					Expect(len(seen)).To(BeNumerically(">", 100), "retry %d: jitter should spread the delays", retry)
				}
			}
		},
		Entry("none", recovery.Backoff{Base: 500 * time.Millisecond, Cap: 32 * time.Second, Jitter: recovery.JitterNone}),
		Entry("positive (Claude Code)", recovery.Backoff{Base: 500 * time.Millisecond, Cap: 32 * time.Second, Jitter: recovery.JitterPositive}),
		Entry("negative (official SDKs)", recovery.Backoff{Base: 500 * time.Millisecond, Cap: 8 * time.Second, Jitter: recovery.JitterNegative}),
		Entry("symmetric", recovery.Backoff{Base: time.Second, Jitter: recovery.JitterSymmetric, JitterRatio: 0.5}),
		Entry("full", recovery.Backoff{Base: time.Second, Cap: time.Minute, Jitter: recovery.JitterFull}),
	)

	It("leaves the delay as computed when no random source is given", func() {
		for _, j := range []recovery.Jitter{recovery.JitterPositive, recovery.JitterNegative, recovery.JitterSymmetric, recovery.JitterFull} {
			Expect(recovery.Backoff{Jitter: j}.Delay(1, nil)).To(Equal(2*time.Second), string(j))
		}
	})

	It("replays exactly from the same seed", func() {
		b := recovery.Backoff{Base: 500 * time.Millisecond, Cap: 32 * time.Second, Jitter: recovery.JitterPositive}
		draw := func() []time.Duration {
			r := rand.New(rand.NewPCG(42, 7))
			var out []time.Duration
			for retry := range 10 {
				out = append(out, b.Delay(retry, r))
			}
			return out
		}
		Expect(draw()).To(Equal(draw()))
	})
})
