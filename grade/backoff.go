package grade

import (
	"fmt"
	"time"
)

// backsOff judges whether the waits after failures grow, from the gaps of
// every run that names the check (one client's, pooled: the verdict is
// the same for each). A pair of gaps of one run grew when the earlier
// holds a wait past the noise (over 50 ms and the margin) and the later
// is longer by the margin and a tenth; it shrank when the earlier is
// longer so; else it is even. It passes a client whose gaps grew in at
// least two pairs, ending on at least two different gaps, and twice as
// often as they shrank (a random schedule's envelope grows, not each of
// its draws); a hiccup, a long gap among waits of none, never grew from
// a wait. It fails a client
// that retries at once (its typical gap at most 50 ms), one whose waits
// never rose past the noise, and one whose gaps stayed even, but for one
// gap, over a run of three or more, on gaps long enough that growth
// would have shown (twice the margin); otherwise it is inconclusive, and
// says the noise.
func backsOff(runs []Run, _ Bounds) []Finding { return pooled(runs, backoffVerdict) }

// pooled gives every run the one verdict judge reaches over the failure
// gaps of them all, with the host's noise (backsOff, jitters); a run not
// reached says how it ended.
func pooled(runs []Run, judge func(gaps [][]int64, noise time.Duration) (Status, string)) []Finding {
	gaps := make([][]int64, len(runs))
	for i, r := range runs {
		gaps[i] = failureGaps(r)
	}
	st, ev := judge(gaps, noiseOfRuns(runs))
	if speed := speedOf(runs); speed > 1 && st == Fail && underNoise(gaps, margin(noiseOfRuns(runs))) {
		// At N× every gap under the margin could hold a wait N times
		// what the real noise hides: no verdict.
		st, ev = Inconclusive, fmt.Sprintf("gaps %s: every one within the host's noise at %d× (%s); grade at --speed 1 to judge waits this short",
			gapsOf(gaps), speed, noiseNote(noiseOfRuns(runs)))
	}
	out := make([]Finding, len(runs))
	for i := range out {
		out[i].Status, out[i].Evidence = st, ev
		if st == NotReached {
			out[i].Evidence = ev + " (" + runs[i].ended() + ")"
		}
	}
	return out
}

// grew says gap b, later in a run than a, is longer past the margin m
// and a tenth of a.
func grew(a, b, m int64) bool { return float64(b) > float64(a)*1.1+float64(m) }

// backoffVerdict is the backoff check over the gaps of each run, with the
// host's noise.
func backoffVerdict(gaps [][]int64, noise time.Duration) (Status, string) {
	var all []int64
	longest := 0
	for _, g := range gaps {
		all = append(all, g...)
		longest = max(longest, len(g))
	}
	if len(all) < 2 {
		return NotReached, fmt.Sprintf("%d %s after a failure: too few to see a backoff", len(all), plural(len(all), "retry"))
	}
	m := margin(noise)
	shown := gapsOf(gaps)
	typ := lowerMedian(all)
	if typ <= atOnceMS {
		return Fail, "retried at once, again and again: gaps " + shown
	}
	if underNoise(gaps, m) {
		return Fail, fmt.Sprintf("never waited past the host's noise: gaps %s; %s", shown, noiseNote(noise))
	}
	ups, downs := 0, 0
	uppers := map[[2]int]bool{}
	for r, g := range gaps {
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				mi := marginAt(i, m)
				switch {
				case g[i] > atOnceMS+mi && grew(g[i], g[j], mi):
					ups++
					uppers[[2]int{r, j}] = true
				case grew(g[j], g[i], mi):
					downs++
				}
			}
		}
	}
	early, late := halves(gaps)
	if ups >= 2 && len(uppers) >= 2 && 2*ups >= 3*downs &&
		float64(late) >= 1.6*float64(early)+float64(m) {
		return Pass, fmt.Sprintf("gaps %s: grew in %d of %d pairs past the noise, shrank in %d", shown, ups, pairs(gaps), downs)
	}
	// Flat: each run one wait, but for one gap of it, over at least
	// five gaps, three in a run, on gaps long enough that a wait twice
	// as long would have shown.
	if len(all) >= 5 && longest >= 3 && resolvable(typ, m) && flatBut1(gaps, m) {
		return Fail, "the gaps did not grow: " + shown
	}
	return Inconclusive, fmt.Sprintf("gaps %s: grew in %d of %d pairs past the noise, shrank in %d: too few to tell a backoff; %s",
		shown, ups, pairs(gaps), downs, noiseNote(noise))
}

// pairs counts the pairs of gaps within runs.
func pairs(gaps [][]int64) int {
	n := 0
	for _, g := range gaps {
		n += len(g) * (len(g) - 1) / 2
	}
	return n
}

// flatBut1 says whether each run's gaps fit one wait (fitsFlat) once one
// of them is dropped, or none.
func flatBut1(gaps [][]int64, m int64) bool {
	for _, g := range gaps {
		ok := false
		for o := -1; o < len(g) && !ok; o++ {
			gs, ks := without(g, o)
			ok = fitsFlat(gs, ks, m)
		}
		if !ok {
			return false
		}
	}
	return true
}

// halves are the typical gaps (lowerMedian) of the earlier and the later
// half of each run's retries, pooled: a backoff's later waits are longer
// than its earlier ones as a rule, a random schedule's draws or not.
func halves(gaps [][]int64) (early, late int64) {
	var e, l []int64
	for _, g := range gaps {
		n := len(g)
		e = append(e, g[:n/2]...)
		l = append(l, g[(n+1)/2:]...)
	}
	if len(e) == 0 || len(l) == 0 {
		return 0, 0
	}
	return mean(e), mean(l)
}

func mean(xs []int64) int64 {
	var t int64
	for _, x := range xs {
		t += x
	}
	return t / int64(len(xs))
}

// resolvable says a gap is long enough, against the noise margin m, that
// a wait a third longer would stand out of the noise.
func resolvable(g, m int64) bool { return float64(m)+slack*float64(g) <= 0.35*float64(g) }
