package grade

import (
	"slices"
	"time"
)

// probeTick is how often the noise probe sleeps: 10 ms.
const probeTick = 10 * time.Millisecond

// maxProbes bounds the probe's samples (20 minutes of ticks); past it the
// probe keeps every other sample, so memory stays flat for any timeout.
const maxProbes = 120_000

// probe measures the host's noise while a client runs: how late a sleep
// of probeTick wakes. On a quiet host a sleep wakes within a millisecond;
// on a loaded one, the client's own sleeps and sends wake as late, and
// each gap the mock measures is longer than the wait by up to that much.
// The checks of waits use it as the host's noise: a difference it could
// make is no evidence (waits.go).
type probe struct {
	stop chan struct{}
	done chan []time.Duration
}

// startProbe starts a probe; end stops it and returns the noise.
func startProbe() *probe {
	p := &probe{stop: make(chan struct{}), done: make(chan []time.Duration, 1)}
	go func() {
		var late []time.Duration
		t := time.NewTimer(probeTick)
		defer t.Stop()
		for {
			asked := time.Now()
			t.Reset(probeTick)
			select {
			case <-p.stop:
				p.done <- late
				return
			case <-t.C:
				late = append(late, max(0, time.Since(asked)-probeTick))
				if len(late) >= maxProbes {
					late = thin(late)
				}
			}
		}
	}()
	return p
}

// thin keeps every other sample.
func thin(xs []time.Duration) []time.Duration {
	out := xs[:0]
	for i := 0; i < len(xs); i += 2 {
		out = append(out, xs[i])
	}
	return out
}

// end stops the probe and returns the host's noise while it ran
// (noiseOf).
func (p *probe) end() time.Duration {
	close(p.stop)
	return noiseOf(<-p.done)
}

// noiseOf is the noise of the samples: their 99th percentile, rounded up
// to the millisecond; 0 with no sample.
func noiseOf(late []time.Duration) time.Duration {
	if len(late) == 0 {
		return 0
	}
	s := slices.Clone(late)
	slices.Sort(s)
	q := s[min(len(s)-1, len(s)*99/100)]
	return (q + time.Millisecond - 1).Truncate(time.Millisecond)
}
