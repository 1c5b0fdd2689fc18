package circuitbreaker

import (
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// TestHalfOpenLetsOneProbe: with the probe out, a half-open breaker
// refuses every other request; an abandoned probe lets the next one probe.
func TestHalfOpenLetsOneProbe(t *testing.T) {
	cfg := Config{Enabled: true, FailureThreshold: 2, Delay: time.Second}
	var c Breakers
	now := clock.Epoch
	for range 2 {
		if ok, _, _ := c.Allow(cfg, "m", now); !ok {
			t.Fatal("a closed breaker refused")
		}
		c.Record(cfg, "m", false, Overloaded, now)
	}
	if ok, _, _ := c.Allow(cfg, "m", now); ok {
		t.Fatal("an open breaker let a request through")
	}
	now = now.Add(time.Second)
	ok, probe, tr := c.Allow(cfg, "m", now)
	if !ok || !probe || tr == nil || tr.To != HalfOpen {
		t.Fatalf("after the delay: ok %v probe %v transition %v, want the probe", ok, probe, tr)
	}
	for range 3 {
		if ok, _, _ := c.Allow(cfg, "m", now); ok {
			t.Fatal("a half-open breaker let a second request through while its probe was out")
		}
	}
	c.Abandon("m", true)
	if ok, probe, _ := c.Allow(cfg, "m", now); !ok || !probe {
		t.Fatal("an abandoned probe did not free the half-open breaker for the next")
	}
	if tr := c.Record(cfg, "m", true, Answered, now); tr == nil || tr.To != Closed {
		t.Fatalf("an answered probe gave %v, want closed", tr)
	}
}
