package bucket

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/internal/clock"
)

// op is one step on a bucket: at a time, pay n if it can, and settle back
// a refund later.
type bucketOp struct {
	dt     time.Duration
	n      int64
	refund int64
	after  time.Duration
	peek   time.Duration // a read between this step and the next
}

func drawOps(t *rapid.T) []bucketOp {
	return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) bucketOp {
		return bucketOp{
			dt:     time.Duration(rapid.Int64Range(0, int64(30*time.Second)).Draw(t, "dt")),
			n:      rapid.Int64Range(0, 120).Draw(t, "n"),
			refund: rapid.Int64Range(0, 50).Draw(t, "refund"),
			after:  time.Duration(rapid.Int64Range(0, int64(10*time.Second)).Draw(t, "after")),
			peek:   time.Duration(rapid.Int64Range(0, int64(30*time.Second)).Draw(t, "peek")),
		}
	}), 1, 40).Draw(t, "ops")
}

// play runs ops on a fresh bucket of limit 100, reading it between steps
// when peek is set; it returns the admissions and the final state.
func play(ops []bucketOp, peek bool) ([]bool, int64, time.Time) {
	b := New(100)
	now := clock.Epoch
	admitted := make([]bool, len(ops))
	for i, o := range ops {
		now = now.Add(o.dt)
		if peek && o.peek < o.dt {
			b.Advance(now.Add(-o.peek))
			_ = b.Remaining()
		}
		b.Advance(now)
		if b.CanPay(o.n) {
			b.Pay(o.n)
			admitted[i] = true
			b.Settle(min(o.refund, o.n), now.Add(o.after))
		}
	}
	b.Advance(now)
	return admitted, b.level, b.last
}

// TestBucketReadsChangeNothing: reading a bucket at any time in between
// (a header, a peek) never changes what it admits later.
func TestBucketReadsChangeNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ops := drawOps(t)
		a1, l1, t1 := play(ops, false)
		a2, l2, t2 := play(ops, true)
		for i := range a1 {
			if a1[i] != a2[i] {
				t.Fatalf("step %d: admitted %v without reads, %v with", i, a1[i], a2[i])
			}
		}
		if l1 != l2 || !t1.Equal(t2) {
			t.Fatalf("final state (%d, %s) without reads, (%d, %s) with", l1, t1, l2, t2)
		}
	})
}

// TestBucketAdmitsNoMoreThanCapacityPlusRefill: over any window, what a
// bucket admits (without refunds) is at most its capacity plus what
// refills in the window.
func TestBucketAdmitsNoMoreThanCapacityPlusRefill(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ops := drawOps(t)
		b := New(100)
		now := clock.Epoch
		type paid struct {
			at time.Time
			n  int64
		}
		var log []paid
		for _, o := range ops {
			now = now.Add(o.dt)
			b.Advance(now)
			if b.CanPay(o.n) {
				b.Pay(o.n)
				log = append(log, paid{now, o.n})
			}
		}
		for i := range log {
			var sum int64
			for j := i; j < len(log); j++ {
				sum += log[j].n
				window := log[j].at.Sub(log[i].at)
				refill := int64(window/time.Microsecond) * 100 / minuteUS
				if sum > 100+refill+1 {
					t.Fatalf("admitted %d in %s: more than 100 + %d", sum, window, refill)
				}
			}
		}
	})
}

func TestBucketWait(t *testing.T) {
	b := New(60) // one a second
	b.Advance(clock.Epoch)
	b.Pay(60)
	if got := b.Wait(1); got != time.Second {
		t.Fatalf("wait(1) = %s, want 1s", got)
	}
	if got := b.Wait(1000); got != time.Minute {
		t.Fatalf("wait past the limit = %s, want the time to fill up, 1m", got)
	}
	b.Settle(30, clock.Epoch.Add(time.Second))
	b.Advance(clock.Epoch.Add(time.Second))
	if got := b.Remaining(); got != 31 {
		t.Fatalf("after 1s and a refund of 30: %d left, want 31", got)
	}
}
