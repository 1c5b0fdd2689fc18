package clock

import (
	"context"
	"testing"
	"time"
)

func TestVirtualSleepAdvances(t *testing.T) {
	c := NewVirtual()
	if err := c.Sleep(context.Background(), 31*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := c.Now().Sub(Epoch); got != 31*time.Second {
		t.Fatalf("advanced %v, want 31s", got)
	}
}

func TestVirtualSleepHonoursCancel(t *testing.T) {
	c := NewVirtual()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Sleep(ctx, time.Second); err == nil {
		t.Fatal("sleep on a cancelled context returned nil")
	}
	if !c.Now().Equal(Epoch) {
		t.Fatal("a cancelled sleep moved the clock")
	}
}

// TestRealSleepWakeEndsWhenWoken: an hour's wait ends when woken from
// another goroutine; a wake after the end reports false; an ended
// context ends the wait with its error.
func TestRealSleepWakeEndsWhenWoken(t *testing.T) {
	wakes := make(chan func() bool, 1)
	done := make(chan error, 1)
	go func() {
		done <- Real{}.SleepWake(context.Background(), time.Hour, func(w func() bool) { wakes <- w })
	}()
	var wake func() bool
	select {
	case wake = <-wakes:
	case <-time.After(10 * time.Second):
		t.Fatal("SleepWake never enlisted")
	}
	if !wake() {
		t.Fatal("the first wake reported the wait over")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("a woken wait returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a woken wait did not end")
	}
	if wake() {
		t.Fatal("a wake after the end reported it ended the wait")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var late func() bool
	if err := (Real{}).SleepWake(ctx, time.Hour, func(w func() bool) { late = w }); err == nil {
		t.Fatal("an ended context's wait returned nil")
	}
	if late() {
		t.Fatal("a wake after the context ended reported it ended the wait")
	}
}
