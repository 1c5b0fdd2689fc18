package clock

import (
	"context"
	"sync"
	"time"
)

// Epoch is the virtual time at which every run begins. It is fixed so that
// anything derived from "now" (an HTTP-date retry-after, a reset header) is
// the same in every run.
var Epoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Virtual is a clock that moves only when someone sleeps on it or advances
// it. A run owns one; the mock reads the same one to judge `before`/`after`.
// It is safe for concurrent use.
type Virtual struct {
	mu  sync.Mutex
	now time.Time
}

// NewVirtual returns a virtual clock standing at Epoch.
func NewVirtual() *Virtual { return &Virtual{now: Epoch} }

// Now returns the virtual time.
func (c *Virtual) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d (a negative d is ignored).
func (c *Virtual) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Sleep advances the clock by d at once. It returns ctx's error, without
// advancing, when ctx has already ended: a cancelled caller never waits.
func (c *Virtual) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.Advance(d)
	return nil
}

// Real is the wall clock. Only the command line uses it, for `serve`.
type Real struct{}

// Now returns the wall-clock time.
func (Real) Now() time.Time { return time.Now() }

// Sleep waits d or until ctx ends, whichever comes first.
func (Real) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// SleepWake waits like Sleep, but first hands enlist a wake function that
// ends the wait early, from any goroutine. wake reports whether it ended
// the wait: false once the wait is over (slept out, ended by ctx, or
// woken before). A wait that wake ends returns nil; one that ctx ends
// returns ctx's error, even if it was woken too (the caller then passes
// on what the wake meant).
func (Real) SleepWake(ctx context.Context, d time.Duration, enlist func(wake func() bool)) error {
	var (
		mu    sync.Mutex
		over  bool
		woken = make(chan struct{})
	)
	enlist(func() bool {
		mu.Lock()
		defer mu.Unlock()
		if over {
			return false
		}
		over = true
		close(woken)
		return true
	})
	t := time.NewTimer(max(d, 0))
	defer t.Stop()
	var err error
	select {
	case <-woken:
	case <-t.C:
	case <-ctx.Done():
		err = ctx.Err()
	}
	mu.Lock()
	over = true
	mu.Unlock()
	return err
}
