package adaptivelimiter

import (
	"slices"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// TestAIMDCutsOncePerBurst: refusals of requests sent before the last cut
// are the same congestion event; a success with half the limit in use
// grows it by one.
func TestAIMDCutsOncePerBurst(t *testing.T) {
	cfg := Config{Enabled: true, InitialLimit: 8, BackoffRatio: 0.5}
	var a Limiters
	t0 := clock.Epoch
	for range 4 {
		if ok, _, _ := a.Acquire(cfg, "m"); !ok {
			t.Fatal("no slot under the limit")
		}
	}
	t1 := t0.Add(time.Second)
	if from, to := a.Release(cfg, "m", Refused, t0, t1); from != 8 || to != 4 {
		t.Fatalf("first 529: %d -> %d, want 8 -> 4", from, to)
	}
	if _, to := a.Release(cfg, "m", Refused, t0, t1); to != 4 {
		t.Fatalf("a second refusal of the same burst cut again, to %d", to)
	}
	if _, to := a.Release(cfg, "m", Answered, t0, t1); to != 5 {
		t.Fatalf("a success with 2 of 4 in flight gave %d, want 5", to)
	}
	if ok, _, _ := a.Acquire(cfg, "m"); !ok {
		t.Fatal("no slot with 1 of 5 in flight")
	}
	if _, to := a.Release(cfg, "m", Refused, t1, t1.Add(time.Second)); to != 2 {
		t.Fatalf("a refusal sent after the cut gave %d, want 5×0.5 = 2", to)
	}
}

// TestAdaptiveLimiterWakesTheOldestWaiterForEachFreedSlot: a release
// wakes one waiting request per free slot, oldest first, skipping a
// wake-up whose wait is over; Kick wakes for a slot a woken request left.
func TestAdaptiveLimiterWakesTheOldestWaiterForEachFreedSlot(t *testing.T) {
	cfg := Config{Enabled: true, InitialLimit: 2, MaxLimit: 2}
	var a Limiters
	var woken []string
	waiter := func(name string, parked bool) func() bool {
		return func() bool {
			if parked {
				woken = append(woken, name)
			}
			return parked
		}
	}
	for range 2 {
		if ok, _, _ := a.Acquire(cfg, "m"); !ok {
			t.Fatal("no slot under the limit")
		}
	}
	a.Enlist(cfg, "m", waiter("gone", false))
	a.Enlist(cfg, "m", waiter("first", true))
	a.Enlist(cfg, "m", waiter("second", true))
	a.Release(cfg, "m", Answered, clock.Epoch, clock.Epoch)
	if want := []string{"first"}; !slices.Equal(woken, want) {
		t.Fatalf("one freed slot woke %v, want %v", woken, want)
	}
	// "first" gives up instead of taking the slot: kick hands it on.
	a.Kick(cfg, "m")
	if want := []string{"first", "second"}; !slices.Equal(woken, want) {
		t.Fatalf("kick woke %v, want %v", woken, want)
	}
	a.Kick(cfg, "m")
	if len(woken) != 2 || len(a.models["m"].waiting) != 0 {
		t.Fatalf("woke %v, %d still queued: nobody was left to wake", woken, len(a.models["m"].waiting))
	}
}
