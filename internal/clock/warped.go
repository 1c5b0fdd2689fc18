package clock

import (
	"context"
	"time"
)

// Warped is the wall clock run Speed times fast from Origin: at real time
// t it reads Origin + (t − Origin)·Speed, and a Sleep of d takes d/Speed
// of real time. It is the clock `faultbench grade --speed N` gives the
// mock, so that the mock's session clock runs at the pace of a client
// whose clock libfaketime speeds up as much (grade/warp.go). Speed 1 or
// less is the wall clock itself.
type Warped struct {
	Origin time.Time
	Speed  int
}

// Now returns the warped time.
func (c Warped) Now() time.Time {
	now := time.Now()
	if c.Speed <= 1 {
		return now
	}
	return c.At(now)
}

// At is the warped time at real time t.
func (c Warped) At(t time.Time) time.Time {
	if c.Speed <= 1 {
		return t
	}
	return c.Origin.Add(t.Sub(c.Origin) * time.Duration(c.Speed))
}

// Sleep waits d of warped time (d/Speed of real time), or until ctx
// ends, whichever comes first.
func (c Warped) Sleep(ctx context.Context, d time.Duration) error {
	if c.Speed > 1 {
		d /= time.Duration(c.Speed)
	}
	return Real{}.Sleep(ctx, d)
}
