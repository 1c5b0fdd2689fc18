package mockllm

import (
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// TestCacheEviction: a full cache drops the prefix that expires first
// (the expired ones before any), and keeps its ceiling.
func TestCacheEviction(t *testing.T) {
	mc := &modelCache{min: 1, entries: map[uint64]*cacheEntry{}}
	now := clock.Epoch
	for i := range maxCacheEntries {
		// Key 0 expires first; the others in order after it.
		mc.put(uint64(i), 10, time.Hour+time.Duration(i)*time.Second, now, now)
	}
	mc.put(1<<40, 10, 5*time.Minute+time.Hour*2, now, now)
	if len(mc.entries) != maxCacheEntries {
		t.Fatalf("%d entries, want the ceiling %d", len(mc.entries), maxCacheEntries)
	}
	if mc.entries[0] != nil {
		t.Error("the prefix that expires first was kept")
	}
	if mc.entries[maxCacheEntries-1] == nil || mc.entries[1<<40] == nil {
		t.Error("a prefix that expires later was dropped")
	}
}
