package ledger_test

import (
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
)

// sonnet is Claude Sonnet's list price, its cache prices at Anthropic's
// multiples of the input price.
var sonnet = ledger.Price{Input: 3, Output: 15, CacheWrite5m: 3.75, CacheWrite1h: 6, CacheRead: 0.3}

func TestBillPricesEachPart(t *testing.T) {
	for _, c := range []struct {
		name          string
		input, output int
		u             ledger.Usage
		want          float64
	}{
		{"no cache", 1_000_000, 0, ledger.Usage{}, 3},
		{"output", 0, 1_000_000, ledger.Usage{}, 15},
		{"all read", 1_000_000, 0, ledger.Usage{CacheRead: 1_000_000}, 0.3},
		{"all written 5m", 1_000_000, 0, ledger.Usage{CacheWrite5m: 1_000_000}, 3.75},
		{"all written 1h", 1_000_000, 0, ledger.Usage{CacheWrite1h: 1_000_000}, 6},
		{"mixed", 40_000, 500, ledger.Usage{CacheRead: 30_000, CacheWrite5m: 8_000}, (2_000*3 + 500*15 + 30_000*0.3 + 8_000*3.75) / 1e6},
		{"cache figures above the input bill no negative input", 10, 0, ledger.Usage{CacheRead: 20}, 20 * 0.3 / 1e6},
	} {
		if got := sonnet.Bill(c.input, c.output, c.u); got != c.want {
			t.Errorf("%s: billed %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRecorderBillsAnswersOnly: a 529 bills nothing, an answer its parts
// at its model's price, and the hit ratio is over the billed input.
func TestRecorderBillsAnswersOnly(t *testing.T) {
	start := clock.Epoch
	rec := ledger.NewRecorder("sc", "claude-code", start, recovery.CountTokens)
	rec.SetPrices(ledger.Prices{"m": sonnet})
	req := recovery.Request{Model: "m", MaxTokens: 100, System: strings.Repeat("x", 4000), Purpose: recovery.PurposeTurn} // 1,000 tokens
	rec.Observe(attempt(req, nil, &recovery.APIError{StatusCode: 529, Type: "overloaded_error"}, 0, start))
	rec.Observe(attempt(req, &recovery.Response{Text: "ok", StopReason: "end_turn", OutputTokens: 10, CacheWrite5mTokens: 1000}, nil, 0, start))
	rec.Observe(attempt(req, &recovery.Response{Text: "ok", StopReason: "end_turn", OutputTokens: 10, CacheReadTokens: 1000}, nil, 0, start))
	r := rec.Finish(ledger.OutcomeSuccess, "", 1)
	if r.AttemptsLog[0].BilledUSD != 0 {
		t.Errorf("the 529 billed %v", r.AttemptsLog[0].BilledUSD)
	}
	if got, want := r.AttemptsLog[1].BilledUSD, (1000*3.75+10*15)/1e6; got != want {
		t.Errorf("the write billed %v, want %v", got, want)
	}
	c := r.Cost
	if c == nil {
		t.Fatal("a priced run has no cost")
	}
	if c.CacheReadTokens != 1000 || c.CacheWriteTokens != 1000 || c.BilledInputTokens != 2000 || c.CacheHitRatio != 0.5 {
		t.Errorf("cost %+v, want read 1000, write 1000, billed input 2000, hit ratio 0.5", *c)
	}
	if want := (1000*3.75 + 1000*0.3 + 20*15) / 1e6; c.BilledUSD != want {
		t.Errorf("billed %v, want %v", c.BilledUSD, want)
	}
	unpriced := ledger.NewRecorder("sc", "classify", start, recovery.CountTokens)
	unpriced.Observe(attempt(req, &recovery.Response{Text: "ok", StopReason: "end_turn"}, nil, 0, start))
	if r := unpriced.Finish(ledger.OutcomeSuccess, "", 1); r.Cost != nil {
		t.Errorf("an unpriced run without cache use has a cost: %+v", *r.Cost)
	}
}
