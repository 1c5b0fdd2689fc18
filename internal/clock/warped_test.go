package clock

import (
	"testing"
	"time"
)

// The warped clock reads the origin, then Speed times the real time since.
func TestWarpedRunsSpeedTimesFast(t *testing.T) {
	origin := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	c := Warped{Origin: origin, Speed: 60}
	if got := c.At(origin.Add(1500 * time.Millisecond)); !got.Equal(origin.Add(90 * time.Second)) {
		t.Errorf("1.5 s after the origin at 60×: %v, want 90 s after it", got.Sub(origin))
	}
	if got := (Warped{Origin: origin, Speed: 1}).At(origin.Add(time.Second)); !got.Equal(origin.Add(time.Second)) {
		t.Errorf("speed 1 is the wall clock: %v", got.Sub(origin))
	}
}
