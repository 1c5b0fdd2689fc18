package recovery

import (
	"math"
	"math/rand/v2"
	"time"
)

// Jitter says how a backoff delay is randomised.
type Jitter string

// The jitter modes. The ratio is Backoff.JitterRatio.
const (
	JitterNone      Jitter = "none"      // the delay as computed
	JitterPositive  Jitter = "positive"  // + 0..ratio, as Claude Code adds 0–25 %
	JitterNegative  Jitter = "negative"  // − 0..ratio, as the official SDKs take off 0–25 %
	JitterSymmetric Jitter = "symmetric" // ± ratio
	JitterFull      Jitter = "full"      // uniform in [0, delay]
)

// Backoff computes the wait before a retry: Base·Factor^retry, capped at
// Cap, then jittered. It is a pure function of its inputs and the random
// source, so a seeded source replays it exactly.
type Backoff struct {
	Base        time.Duration `yaml:"base"`         // 0 means 1 s
	Factor      float64       `yaml:"factor"`       // 0 means 2
	Cap         time.Duration `yaml:"cap"`          // 0 means no cap
	Jitter      Jitter        `yaml:"jitter"`       // "" means none
	JitterRatio float64       `yaml:"jitter_ratio"` // 0 means 0.25 for the ratio modes

	// Running keeps the step's backoff as a running delay, as Gemini CLI's
	// retryWithBackoff keeps currentDelay: it starts at Base, and after
	// each wait becomes Factor times itself, capped at Cap; a
	// server-requested wait longer than it replaces it first (the wait is
	// then the larger of the two, and the next backoff doubles from it). A
	// new step starts it again at Base. false computes each delay from the
	// attempt number alone. Delay does not read it; the engine does, for
	// Strategy.Backoff only. Classify only.
	Running bool `yaml:"running"`
}

// Delay returns the wait before retry number retry (0 for the first retry).
// r may be nil when Jitter is none.
func (b Backoff) Delay(retry int, r *rand.Rand) time.Duration {
	base, factor := b.Base, b.Factor
	if base <= 0 {
		base = time.Second
	}
	if factor <= 0 {
		factor = 2
	}
	d := float64(base) * math.Pow(factor, float64(max(retry, 0)))
	if b.Cap > 0 && d > float64(b.Cap) {
		d = float64(b.Cap)
	}
	if d > float64(math.MaxInt64/2) {
		d = float64(math.MaxInt64 / 2)
	}
	ratio := b.JitterRatio
	if ratio <= 0 {
		ratio = 0.25
	}
	if r != nil {
		switch b.Jitter {
		case JitterPositive:
			d += d * ratio * r.Float64()
		case JitterNegative:
			d -= d * ratio * r.Float64()
		case JitterSymmetric:
			d += d * ratio * (2*r.Float64() - 1)
		case JitterFull:
			d *= r.Float64()
		}
	}
	return time.Duration(d)
}

// Bounds returns the least and greatest delay Delay can return for retry.
func (b Backoff) Bounds(retry int) (lo, hi time.Duration) {
	plain := Backoff{Base: b.Base, Factor: b.Factor, Cap: b.Cap}.Delay(retry, nil)
	ratio := b.JitterRatio
	if ratio <= 0 {
		ratio = 0.25
	}
	f := float64(plain)
	switch b.Jitter {
	case JitterPositive:
		return plain, time.Duration(f + f*ratio)
	case JitterNegative:
		return time.Duration(f - f*ratio), plain
	case JitterSymmetric:
		return time.Duration(f - f*ratio), time.Duration(f + f*ratio)
	case JitterFull:
		return 0, plain
	}
	return plain, plain
}
