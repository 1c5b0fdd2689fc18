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
