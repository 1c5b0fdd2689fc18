package harness

import (
	"context"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// TestSchedRunsOneTurnAtATimeEarliestFirstTiesByIndex: turns that sleep
// wake in order of time, then of index, and concurrency holds later turns
// back until a slot frees.
func TestSchedRunsOneTurnAtATimeEarliestFirstTiesByIndex(t *testing.T) {
	var s *sched
	var order []int
	var at []time.Duration
	running := 0
	s = newSched(4, 3, func(k int) time.Time { return clock.Epoch }, func(k int) {
		running++
		if running > 1 {
			t.Errorf("turn %d runs beside another", k)
		}
		// Turns 0 and 2 sleep 2s, turn 1 sleeps 1s: 1 wakes first, then
		// 0 before 2 (a tie), and turn 3 starts when 1 ends.
		d := 2 * time.Second
		if k == 1 {
			d = time.Second
		}
		running--
		_ = s.Sleep(context.Background(), d)
		running++
		order = append(order, k)
		at = append(at, s.Now().Sub(clock.Epoch))
		running--
	})
	s.Run()
	want := []int{1, 0, 2, 3}
	wantAt := []time.Duration{time.Second, 2 * time.Second, 2 * time.Second, 3 * time.Second} // 3 starts at 1s
	for i := range want {
		if order[i] != want[i] || at[i] != wantAt[i] {
			t.Fatalf("ended %v at %v, want %v at %v", order, at, want, wantAt)
		}
	}
}

// TestSleepWakeRunsTheWokenTurnAtTheWakersTime: a turn parked with
// SleepWake for an hour runs again at the virtual time another turn woke
// it, and a wake after that finds it no longer parked.
func TestSleepWakeRunsTheWokenTurnAtTheWakersTime(t *testing.T) {
	var s *sched
	var wakeUp func() bool
	var wokeAt time.Duration
	var stale bool
	s = newSched(2, 2, func(k int) time.Time { return clock.Epoch }, func(k int) {
		switch k {
		case 0:
			err := s.SleepWake(context.Background(), time.Hour, func(w func() bool) { wakeUp = w })
			if err != nil {
				t.Errorf("SleepWake: %v", err)
			}
			wokeAt = s.Now().Sub(clock.Epoch)
		case 1:
			_ = s.Sleep(context.Background(), 3*time.Second)
			if !wakeUp() {
				t.Error("wake found turn 0 not parked")
			}
			_ = s.Sleep(context.Background(), time.Second) // turn 0 runs at 3s meanwhile
			stale = wakeUp()
		}
	})
	s.Run()
	if wokeAt != 3*time.Second || stale {
		t.Fatalf("turn 0 ran again at %v (want 3s); a second wake reported %v (want false)", wokeAt, stale)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.SleepWake(ctx, time.Hour, func(func() bool) { t.Error("enlisted on an ended context") }); err == nil {
		t.Fatal("SleepWake on an ended context returned nil")
	}
}
