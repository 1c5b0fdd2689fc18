package grade

import (
	"fmt"
	"slices"
	"strings"
)

// failureGaps are the gaps before each judged attempt that followed a
// failed one: the client's waits, as the mock measured them between the
// requests' arrivals (an error answers in a loopback round trip, so the
// gap is the wait and little else).
func failureGaps(r Run) []int64 {
	att := r.judged()
	var out []int64
	for i := 1; i < len(att); i++ {
		if att[i-1].Kind != "ok" {
			out = append(out, att[i].GapMS)
		}
	}
	return out
}

// gapList writes gaps for evidence: "0.5, 1, 2 s".
func gapList(gaps []int64) string {
	if len(gaps) == 0 {
		return "none"
	}
	parts := make([]string, len(gaps))
	for i, g := range gaps {
		parts[i] = strings.TrimSuffix(seconds(ms(g)), " s")
	}
	const most = 12
	if len(parts) > most {
		parts = append(parts[:most], "…")
	}
	return strings.Join(parts, ", ") + " s"
}

// honoursWait judges the waits after every answer that asked for one (in
// retry-after or retry-after-ms): the next request must come at least that
// long after, and at most twice that and a second.
func honoursWait(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	var seen []string
	for i := 0; i+1 < len(att); i++ {
		e, next := att[i], att[i+1]
		if e.RetryAfterMS == nil || e.Kind == "ok" {
			continue
		}
		asked, gap := *e.RetryAfterMS, next.GapMS
		switch {
		case gap < asked:
			return Fail, fmt.Sprintf("request %d came %s after a %d that asked for %s", next.N, seconds(ms(gap)), e.Status, seconds(ms(asked)))
		case gap > 2*asked+1000:
			return Fail, fmt.Sprintf("request %d came %s after a %d that asked for %s: over twice that and a second", next.N, seconds(ms(gap)), e.Status, seconds(ms(asked)))
		}
		seen = append(seen, fmt.Sprintf("%s for %s", seconds(ms(gap)), seconds(ms(asked))))
	}
	if len(seen) == 0 {
		return NotReached, r.unmet("followed an answer that asked for a wait")
	}
	return Pass, "waited " + strings.Join(seen, ", ")
}

// backsOff judges whether the waits after failures grow: the longest
// after the first is at least 1.2 times the first, and not all of them
// are immediate (under 100 ms).
func backsOff(r Run, _ Bounds) (Status, string) {
	g := failureGaps(r)
	if len(g) < 2 {
		return NotReached, fmt.Sprintf("%d %s after a failure: too few to see a backoff (%s)", len(g), plural(len(g), "retry"), r.ended())
	}
	longest := max(g[0], maxOf(g[1:]))
	switch {
	case longest < 100:
		return Fail, "retried at once, again and again: gaps " + gapList(g)
	case float64(maxOf(g[1:])) < 1.2*float64(g[0]):
		return Fail, "the gaps did not grow: " + gapList(g)
	}
	return Pass, "gaps " + gapList(g)
}

// median is the middle of xs (the upper of the two middles).
func median(xs []int64) int64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func maxOf(xs []int64) int64 {
	var m int64
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// atOnce is a gap too short to tell a wait from none: 20 ms.
const atOnce = 20

// differ says two waits differ by more than a real sleep's noise: 5 % of
// the longer, and at least 20 ms.
func differ(a, b int64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return float64(d) > max(0.05*float64(max(a, b)), atOnce)
}

// jitters judges whether the waits are random: within a run, whether the
// gaps follow no exact schedule (the same wait, or exact doubling, keeps
// the ratio of successive gaps the same); across the runs that name the check,
// whether the same retry waited a different time. A client that does
// neither would, as a fleet, retry in step after a shared outage.
func jitters(runs []Run, _ Bounds) []Finding {
	gaps := make([][]int64, len(runs))
	for i, r := range runs {
		gaps[i] = failureGaps(r)
	}
	out := make([]Finding, len(runs))
	for i, g := range gaps {
		f := &out[i]
		if len(g) == 0 {
			f.Status, f.Evidence = NotReached, "no retry after a failure ("+runs[i].ended()+")"
			continue
		}
		if median(g) < 50 {
			f.Status, f.Evidence = Fail, "retried at once (gaps "+gapList(g)+"): a fleet of it would retry in step"
			continue
		}
		judged := false
		if len(g) >= 3 {
			judged = true
			if ratiosVary(g) {
				f.Status, f.Evidence = Pass, "gaps "+gapList(g)+": not an exact schedule"
				continue
			}
		}
		found := false
		for j, other := range gaps {
			if j == i || len(other) == 0 {
				continue
			}
			for k := 0; k < len(g) && k < len(other); k++ {
				judged = true
				if differ(g[k], other[k]) {
					f.Status, f.Evidence = Pass, fmt.Sprintf("retry %d waited %s here and %s in %s", k+1, seconds(ms(g[k])), seconds(ms(other[k])), runs[j].Scenario.Name)
					found = true
					break
				}
			}
			if found {
				break
			}
		}
		switch {
		case found:
		case judged:
			f.Status, f.Evidence = Fail, "gaps "+gapList(g)+": an exact schedule, the same in every run: a fleet of it would retry in step"
		default:
			f.Status, f.Evidence = NotReached, "gaps "+gapList(g)+": too few retries to tell"
		}
	}
	return out
}

// ratiosVary says whether the gaps follow no exact schedule: with r the
// median ratio of a gap to the one before it (1 for the same wait again,
// 2 for exact doubling), some gap differs from r times the one before it
// by more than a sleep's noise (differ).
func ratiosVary(g []int64) bool {
	var ratios []float64
	for i := 1; i < len(g); i++ {
		if g[i-1] >= atOnce {
			ratios = append(ratios, float64(g[i])/float64(g[i-1]))
		}
	}
	if len(ratios) < 2 {
		return false
	}
	slices.Sort(ratios)
	r := ratios[len(ratios)/2]
	for i := 1; i < len(g); i++ {
		if g[i-1] >= atOnce && differ(int64(r*float64(g[i-1])), g[i]) {
			return true
		}
	}
	return false
}

func plural(n int, one string) string {
	if n == 1 {
		return one
	}
	if strings.HasSuffix(one, "y") {
		return strings.TrimSuffix(one, "y") + "ies"
	}
	return one + "s"
}
