package recovery

import (
	"slices"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// TestHalfOpenLetsOneProbe: with the probe out, a half-open breaker
// refuses every other request; an abandoned probe lets the next one probe.
func TestHalfOpenLetsOneProbe(t *testing.T) {
	cfg := CircuitBreaker{Enabled: true, FailureThreshold: 2, Delay: time.Second}
	var c circuitBreakers
	now := clock.Epoch
	for range 2 {
		if ok, _, _ := c.allow(cfg, "m", now); !ok {
			t.Fatal("a closed breaker refused")
		}
		c.record(cfg, "m", false, KindOverloaded, now)
	}
	if ok, _, _ := c.allow(cfg, "m", now); ok {
		t.Fatal("an open breaker let a request through")
	}
	now = now.Add(time.Second)
	ok, probe, tr := c.allow(cfg, "m", now)
	if !ok || !probe || tr == nil || tr.to != BreakerHalfOpen {
		t.Fatalf("after the delay: ok %v probe %v transition %v, want the probe", ok, probe, tr)
	}
	for range 3 {
		if ok, _, _ := c.allow(cfg, "m", now); ok {
			t.Fatal("a half-open breaker let a second request through while its probe was out")
		}
	}
	c.abandon("m", true)
	if ok, probe, _ := c.allow(cfg, "m", now); !ok || !probe {
		t.Fatal("an abandoned probe did not free the half-open breaker for the next")
	}
	if tr := c.record(cfg, "m", true, KindOK, now); tr == nil || tr.to != BreakerClosed {
		t.Fatalf("an answered probe gave %v, want closed", tr)
	}
}

// TestAIMDCutsOncePerBurst: refusals of requests sent before the last cut
// are the same congestion event; a success with half the limit in use
// grows it by one.
func TestAIMDCutsOncePerBurst(t *testing.T) {
	cfg := AdaptiveLimiter{Enabled: true, InitialLimit: 8, BackoffRatio: 0.5}
	var a adaptiveLimiter
	t0 := clock.Epoch
	for range 4 {
		if ok, _, _ := a.acquire(cfg, "m"); !ok {
			t.Fatal("no slot under the limit")
		}
	}
	t1 := t0.Add(time.Second)
	if from, to := a.release(cfg, "m", KindOverloaded, t0, t1); from != 8 || to != 4 {
		t.Fatalf("first 529: %d -> %d, want 8 -> 4", from, to)
	}
	if _, to := a.release(cfg, "m", KindRateLimit, t0, t1); to != 4 {
		t.Fatalf("a second refusal of the same burst cut again, to %d", to)
	}
	if _, to := a.release(cfg, "m", KindOK, t0, t1); to != 5 {
		t.Fatalf("a success with 2 of 4 in flight gave %d, want 5", to)
	}
	if ok, _, _ := a.acquire(cfg, "m"); !ok {
		t.Fatal("no slot with 1 of 5 in flight")
	}
	if _, to := a.release(cfg, "m", KindOverloaded, t1, t1.Add(time.Second)); to != 2 {
		t.Fatalf("a refusal sent after the cut gave %d, want 5×0.5 = 2", to)
	}
}

// TestAdaptiveLimiterWakesTheOldestWaiterForEachFreedSlot: a release
// wakes one waiting request per free slot, oldest first, skipping a
// wake-up whose wait is over; kick wakes for a slot a woken request left.
func TestAdaptiveLimiterWakesTheOldestWaiterForEachFreedSlot(t *testing.T) {
	cfg := AdaptiveLimiter{Enabled: true, InitialLimit: 2, MaxLimit: 2}
	var a adaptiveLimiter
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
		if ok, _, _ := a.acquire(cfg, "m"); !ok {
			t.Fatal("no slot under the limit")
		}
	}
	a.enlist(cfg, "m", waiter("gone", false))
	a.enlist(cfg, "m", waiter("first", true))
	a.enlist(cfg, "m", waiter("second", true))
	a.release(cfg, "m", KindOK, clock.Epoch, clock.Epoch)
	if want := []string{"first"}; !slices.Equal(woken, want) {
		t.Fatalf("one freed slot woke %v, want %v", woken, want)
	}
	// "first" gives up instead of taking the slot: kick hands it on.
	a.kick(cfg, "m")
	if want := []string{"first", "second"}; !slices.Equal(woken, want) {
		t.Fatalf("kick woke %v, want %v", woken, want)
	}
	a.kick(cfg, "m")
	if len(woken) != 2 || len(a.models["m"].waiting) != 0 {
		t.Fatalf("woke %v, %d still queued: nobody was left to wake", woken, len(a.models["m"].waiting))
	}
}
