package recovery_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/recovery"
)

// presetBackoff is a preset's documented retry schedule on a 500, written
// here from docs/strategies.md and the sources it cites, not read from the
// code: retry k waits base·2^k, capped at limit, then jittered by ratio in
// the direction jitter names ("+" adds 0..ratio, "-" takes 0..ratio off,
// "±" either way, "" none).
type presetBackoff struct {
	name    string
	base    time.Duration
	limit   time.Duration // 0: no cap
	jitter  string
	ratio   float64
	retries int // how many leading retries follow the schedule
}

var documentedBackoffs = []presetBackoff{
	{name: "blind", base: time.Second, retries: 4},
	{name: "classify", base: time.Second, retries: 4},
	{name: "claude-code", base: 500 * time.Millisecond, limit: 32 * time.Second, jitter: "+", ratio: 0.25, retries: 6},
	{name: "kimi-code", base: 500 * time.Millisecond, limit: 32 * time.Second, jitter: "+", ratio: 0.25, retries: 6},
	{name: "s11", base: 500 * time.Millisecond, retries: 2},
	{name: "sdk-anthropic", base: 500 * time.Millisecond, limit: 8 * time.Second, jitter: "-", ratio: 0.25, retries: 2},
	{name: "sdk-openai", base: 500 * time.Millisecond, limit: 8 * time.Second, jitter: "-", ratio: 0.25, retries: 2},
	{name: "gemini-cli", base: 5 * time.Second, limit: 30 * time.Second, jitter: "±", ratio: 0.3, retries: 6},
	{name: "codex", base: 200 * time.Millisecond, jitter: "±", ratio: 0.1, retries: 4},
	{name: "ai-sdk", base: 2 * time.Second, retries: 2},
	{name: "langchain-js", base: time.Second, jitter: "+", ratio: 1, retries: 6},
}

// envelope is the least and greatest wait, and the mean, before retry k.
func (b presetBackoff) envelope(k int) (lo, hi, mean float64) {
	d := float64(b.base) * math.Pow(2, float64(k))
	if b.limit > 0 && d > float64(b.limit) {
		d = float64(b.limit)
	}
	switch b.jitter {
	case "+":
		return d, d * (1 + b.ratio), d * (1 + b.ratio/2)
	case "-":
		return d * (1 - b.ratio), d, d * (1 - b.ratio/2)
	case "±":
		return d * (1 - b.ratio), d * (1 + b.ratio), d
	}
	return d, d, d
}

// waitsOn500 is the waits a preset takes on a 500 that does not end, one
// seed.
func waitsOn500(s recovery.Strategy, seed uint64) []time.Duration {
	var waits []time.Duration
	p := &fake{script: func(n int, _ recovery.Request) answer {
		if n > 12 {
			return ok("fine")
		}
		return status(500, "api_error", "boom")
	}}
	e := recovery.New(p, s, recovery.WithClock(clock.NewVirtual()), recovery.WithRand(rand.New(rand.NewPCG(seed, 7))),
		recovery.WithObserver(func(ev recovery.Event) {
			if ev.Type == recovery.EventWait {
				waits = append(waits, ev.Wait)
			}
		}))
	_, _ = e.Do(context.Background(), turnOf("m", 1000, 2, 100))
	return waits
}

// TestPresetBackoffDistributions pins each preset's randomised constants
// by the distribution of its draws, not by one suite figure: over 3,000
// seeds, every wait before retry k lies in the documented envelope, the
// draws reach both of its ends, and their mean is the documented mean. A
// preset whose jitter goes one way where it should go both (codex's
// ±10 % as +0–10 %) moves the least draw and the mean by a twentieth of
// the base and fails.
func TestPresetBackoffDistributions(t *testing.T) {
	const seeds = 3000
	for _, b := range documentedBackoffs {
		t.Run(b.name, func(t *testing.T) {
			s, ok := recovery.Preset(b.name)
			if !ok {
				t.Fatalf("no preset %q", b.name)
			}
			draws := make([][]float64, b.retries)
			for seed := range uint64(seeds) {
				waits := waitsOn500(s, seed)
				if len(waits) < b.retries {
					t.Fatalf("seed %d: %d waits on a lasting 500, want at least %d", seed, len(waits), b.retries)
				}
				for k := range b.retries {
					draws[k] = append(draws[k], float64(waits[k]))
				}
			}
			for k, ds := range draws {
				lo, hi, mean := b.envelope(k)
				width := hi - lo
				minD, maxD, sum := math.Inf(1), math.Inf(-1), 0.0
				for _, d := range ds {
					minD, maxD, sum = min(minD, d), max(maxD, d), sum+d
				}
				got := sum / float64(len(ds))
				// A uniform draw's mean over n has a standard error of
				// width/√(12n): 0.53 % of the width at 3,000; 3 % is
				// more than five of them. Rounding to nanoseconds aside,
				// a schedule with no jitter is exact.
				slack := max(width*0.03, 2)
				if minD < lo-2 || maxD > hi+2 {
					t.Errorf("retry %d: draws in [%v, %v], documented [%v, %v]", k, dur(minD), dur(maxD), dur(lo), dur(hi))
				}
				if minD-lo > slack || hi-maxD > slack {
					t.Errorf("retry %d: draws in [%v, %v] do not reach the documented ends [%v, %v]", k, dur(minD), dur(maxD), dur(lo), dur(hi))
				}
				if math.Abs(got-mean) > slack {
					t.Errorf("retry %d: mean %v, documented %v", k, dur(got), dur(mean))
				}
			}
		})
	}
}

func dur(f float64) time.Duration { return time.Duration(f).Round(time.Microsecond) }
