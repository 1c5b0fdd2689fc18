package grade

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// minJitter is the least jitter the check means to see: waits drawn
// within ±33 % of their middle, as equal jitter's are (full jitter's
// are ±100 %).
const minJitter = 0.33

// evidence is what one comparison of an exact schedule with gaps a and b
// (the same gap twice for a gap against the schedule) tells against a
// jitter of minJitter: with t the comparison's tolerance relative to the
// shorter gap, a jittered wait would fall inside it about t/minJitter of
// the time, so passing it is worth log(minJitter/t); nothing when t is
// wider than the jitter.
func evidence(a, b, m int64) float64 {
	t := (float64(m) + slack*float64(max(a, b))) / float64(max(1, min(a, b)))
	return max(0, math.Log(minJitter/t))
}

// enough is the evidence an exact schedule must have passed for the
// jitter check to fail a client: a jittered client passes that much
// about once in 2,000.
var enough = math.Log(2000)

// differ says two gaps at the same retry differ past the noise margin m
// and a sleep's slack: their waits cannot be one.
func differ(a, b, m int64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return float64(d) > float64(m)+slack*float64(max(a, b))
}

// jitters judges whether the waits are random, from the gaps of every run
// that names the check (one client's, pooled: the verdict is the same for
// each). Evidence of randomness is a run whose gaps fit no exact schedule
// (fitsExact), or the same retry waiting a different time in two runs.
// It must survive dropping any one gap: a hiccup is not jitter (nor is
// the first request's overhead that some clients pay in their first gap,
// which the first gap's wider margin allows). It fails a client that retries at once (its typical gap at
// most 50 ms), one whose waits never rose past the noise, and one that
// follows an exact schedule over at least three comparisons on gaps long
// enough to show a jitter (resolvable); otherwise it is inconclusive, and
// says the noise.
func jitters(runs []Run, _ Bounds) []Finding { return pooled(runs, jitterVerdict) }

// jitterVerdict is the jitter check over the gaps of each run, with the
// host's noise.
func jitterVerdict(gaps [][]int64, noise time.Duration) (Status, string) {
	var all []int64
	for _, g := range gaps {
		all = append(all, g...)
	}
	if len(all) == 0 {
		return NotReached, "no retry after a failure"
	}
	m := margin(noise)
	shown := gapsOf(gaps)
	if typ := lowerMedian(all); typ <= atOnceMS {
		return Fail, fmt.Sprintf("retried at once (gaps %s): a fleet of it would retry in step", shown)
	}
	if underNoise(gaps, m) {
		return Fail, fmt.Sprintf("never waited past the host's noise (gaps %s; %s): a fleet of it would retry in step", shown, noiseNote(noise))
	}
	if len(all) < 2 {
		return NotReached, "gaps " + shown + ": too few retries to tell"
	}
	// fits(r, o): run r without its gap o (-1: none) fits an exact
	// schedule; computed once, when asked.
	type fitted struct{ done, fits bool }
	memo := make([][]fitted, len(gaps))
	for r, g := range gaps {
		memo[r] = make([]fitted, len(g)+1)
	}
	fits := func(r, o int) bool {
		f := &memo[r][o+1]
		if !f.done {
			gs, ks := without(gaps[r], o)
			f.fits, f.done = fitsExact(gs, ks, m), true
		}
		return f.fits
	}
	best, explained := 0.0, false
	forEachDrop(gaps, func(drop []int) bool {
		var ev float64
		for a := range gaps {
			for b := a + 1; b < len(gaps); b++ {
				for k := 0; k < len(gaps[a]) && k < len(gaps[b]); k++ {
					if k == drop[a] || k == drop[b] {
						continue
					}
					x, y := gaps[a][k], gaps[b][k]
					if differ(x, y, marginAt(k, m)) && min(x, y) > atOnceMS+marginAt(k, m) {
						return true // two waits, not one and a hiccup
					}
					ev += evidence(x, y, marginAt(k, m))
				}
			}
		}
		for r, g := range gaps {
			if !fits(r, drop[r]) {
				return true // random even so
			}
			var each []float64
			for k, x := range g {
				if k != drop[r] {
					each = append(each, evidence(x, x, marginAt(k, m)))
				}
			}
			// Two points place the schedule; the others check it.
			slices.Sort(each)
			for _, e := range each[:max(0, len(each)-2)] {
				ev += e
			}
		}
		explained, best = true, max(best, ev)
		return true
	})
	switch {
	case !explained:
		return Pass, fmt.Sprintf("gaps %s: no exact schedule, even without any one gap", shown)
	case best >= enough:
		return Fail, fmt.Sprintf("gaps %s: an exact schedule, the same in every run: a fleet of it would retry in step", shown)
	}
	return Inconclusive, fmt.Sprintf("gaps %s: too few long enough to tell a random wait from an exact one; %s", shown, noiseNote(noise))
}

// underNoise says the client never waited past the noise: every gap of
// a run but one at most 50 ms and the margin (a hiccup apart), over at
// least 6 gaps, 3 in one run.
func underNoise(gaps [][]int64, m int64) bool {
	n, longest := 0, 0
	for _, g := range gaps {
		n += len(g)
		longest = max(longest, len(g))
		over := 0
		for k, x := range g {
			if x > atOnceMS+marginAt(k, m) {
				over++
			}
		}
		if over > 1 {
			return false
		}
	}
	return n >= 6 && longest >= 3
}

// without is a run's gaps and their retry numbers, without gap o (-1:
// with every gap).
func without(g []int64, o int) ([]int64, []int) {
	var gs []int64
	var ks []int
	for k, x := range g {
		if k != o {
			gs, ks = append(gs, x), append(ks, k)
		}
	}
	return gs, ks
}

// forEachDrop calls f with each choice of one gap to drop (drop[r] is
// the gap dropped of run r, -1 for none): none, then each gap in turn,
// until f returns false.
func forEachDrop(gaps [][]int64, f func(drop []int) bool) {
	drop := make([]int, len(gaps))
	for i := range drop {
		drop[i] = -1
	}
	if !f(drop) {
		return
	}
	for r, g := range gaps {
		for k := range g {
			drop[r] = k
			if !f(drop) {
				return
			}
		}
		drop[r] = -1
	}
}

// gapsOf writes the gaps of every run for evidence: "0.5, 1, 2 s / 0.4,
// 1.1 s".
func gapsOf(gaps [][]int64) string {
	s := ""
	for i, g := range gaps {
		if i > 0 {
			s += " / "
		}
		s += gapList(g)
	}
	return s
}
