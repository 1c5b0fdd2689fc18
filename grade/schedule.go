package grade

import "math"

// An exact schedule waits a·r^k before retry k: the same wait again (r =
// 1), exact doubling (r = 2), any fixed growth. A client on one, however
// long its waits, would as a fleet retry in step. fitsExact says whether
// some such schedule could have made the gaps at positions ks, given that
// a gap is the wait and up to m milliseconds more (the noise margin), and
// a sleep's own slack either way (the first gap, firstMS more).
// A schedule may end in a cap: its last waits the same, or its last
// wait shorter than the schedule's own but not shorter than the one
// before.
//
// In logarithms an exact schedule is a line, log a + k·log r, and each gap
// allows its wait an interval [lo, hi]: the schedule exists when a line
// passes through every interval. With s the slope, the spread
// f(s) = max(lo_k − k·s) − min(hi_k − k·s) is convex, and a line exists
// when its least value is at most 0, found by a ternary search over the
// slopes from r = 1 to r = 16 (a retry schedule never shrinks).
func fitsExact(gaps []int64, ks []int, m int64) bool {
	n := min(len(gaps), maxFit)
	if n < 3 {
		return true
	}
	var lo, hi, at [maxFit]float64
	for i := range n {
		g := float64(gaps[i])
		lo[i] = math.Log(max(1, (g-float64(marginAt(ks[i], m)))*(1-slack)))
		hi[i] = math.Log(max(1, g) * (1 + slack))
		at[i] = float64(ks[i])
	}
	// A cap: the longest run of last gaps, two or more, that one wait
	// fits stands for one point, the first of them, which the line may
	// pass above (the schedule's own wait there is the cap or more).
	c, a, b := n-1, lo[n-1], hi[n-1]
	for c > 0 && max(a, lo[c-1]) <= min(b, hi[c-1]) {
		c--
		a, b = max(a, lo[c]), min(b, hi[c])
	}
	switch {
	case c < n-1:
		lo[c], hi[c], n = a, math.Inf(1), c+1
	case gaps[n-1] >= gaps[n-2]:
		hi[n-1] = math.Inf(1) // a cap one gap long
	}
	if n < 3 {
		return true
	}
	spread := func(s float64) float64 {
		a, b := math.Inf(-1), math.Inf(1)
		for i := range n {
			a = max(a, lo[i]-at[i]*s)
			b = min(b, hi[i]-at[i]*s)
		}
		return a - b
	}
	l, h := 0.0, math.Log(16)
	for range 40 {
		m1, m2 := l+(h-l)/3, h-(h-l)/3
		if spread(m1) <= spread(m2) {
			h = m2
		} else {
			l = m1
		}
	}
	return spread((l+h)/2) <= 1e-9
}

// slack is a sleep's own error, relative to the wait: 1 %.
const slack = 0.01

// maxFit is the most gaps of a run fitsExact looks at: its first 64.
const maxFit = 64

// fitsFlat says whether one wait could have made every gap of gaps
// (positions ks), with the margins of fitsExact.
func fitsFlat(gaps []int64, ks []int, m int64) bool {
	a, b := math.Inf(-1), math.Inf(1)
	for i, x := range gaps {
		g := float64(x)
		a = max(a, (g-float64(marginAt(ks[i], m)))*(1-slack))
		b = min(b, g*(1+slack))
	}
	return a <= b
}
