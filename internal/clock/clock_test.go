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
