package retrybudget

import (
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
)

// TestRetryBudgetTakeRefusesPastTheBudget: take is the last word on a
// retry, even when allows said yes a moment before (another turn may have
// taken the room while this one waited): past ratio × requests + floor it
// refuses and counts nothing.
func TestRetryBudgetTakeRefusesPastTheBudget(t *testing.T) {
	cfg := Config{Enabled: true, Ratio: 0.5, MinRetries: 1, Window: time.Minute}
	var b Budget
	now := clock.Epoch
	for range 2 {
		b.Take(cfg, false, now) // two requests: room for 0.5 × 2 + 1 = 2 retries
	}
	if !b.Allows(cfg, now) {
		t.Fatal("an empty budget refused")
	}
	for i := range 2 {
		if !b.Take(cfg, true, now) {
			t.Fatalf("retry %d refused within the budget", i+1)
		}
	}
	if b.Take(cfg, true, now) {
		t.Fatal("a third retry was taken past a budget of 2")
	}
	if b.retries != 2 {
		t.Fatalf("a refused retry was counted: %d retries", b.retries)
	}
	if !b.Take(cfg, true, now.Add(time.Minute)) {
		t.Fatal("a new window did not renew the budget")
	}
}

// TestRetryBudgetRefundGivesBackWhatWasTaken: an attempt taken but never
// sent (its hold was cancelled) gives back its own count — a retry's
// room, not a request's — so the budget is as if it had not been asked.
func TestRetryBudgetRefundGivesBackWhatWasTaken(t *testing.T) {
	cfg := Config{Enabled: true, Ratio: 0.5, Window: time.Minute}
	var b Budget
	now := clock.Epoch
	for range 2 {
		b.Take(cfg, false, now) // room for 0.5 × 2 = 1 retry
	}
	if !b.Take(cfg, true, now) {
		t.Fatal("the one retry of the budget was refused")
	}
	b.Refund(true)
	if b.requests != 2 || b.retries != 0 {
		t.Fatalf("after refunding the retry: %d requests, %d retries; want 2 and 0", b.requests, b.retries)
	}
	if !b.Take(cfg, true, now) {
		t.Fatal("the refunded retry's room was not given back")
	}
	b.Refund(false)
	if b.requests != 1 || b.retries != 1 {
		t.Fatalf("after refunding a request: %d requests, %d retries; want 1 and 1", b.requests, b.retries)
	}
}
