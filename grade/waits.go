package grade

import (
	"fmt"
	"slices"
	"strings"
	"time"
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

// The host's noise, as the checks of waits take it. A gap the mock
// measures is the client's wait and more, never less: the answer's round
// trip, the client's own work, and on a loaded host the time its sleep
// woke late. So a gap is an upper bound on the wait, exactly, and a lower
// bound only up to the noise: a difference between two gaps is evidence
// only past the margin.
const (
	// floorMS is the noise of a quiet host: a loopback round trip and a
	// client's work between an answer and its next request.
	floorMS = 20
	// atOnceMS is a gap too short to hold a wait worth the name: a
	// client whose typical gap is this or less retries at once, whatever
	// the noise (noise only lengthens gaps).
	atOnceMS = 50
	// firstMS is what a client may add to its first gap alone: the work
	// of its first answer (Node's fetch pays tens of milliseconds there).
	// The first gap bounds the first wait from above only, to that much.
	firstMS = 100
)

// margin is the difference two gaps must show to differ past the noise
// of a run: the host's noise (Run.Noise) and the floor.
func margin(noise time.Duration) int64 { return floorMS + noise.Milliseconds() }

// marginAt is the margin of retry k's gap: the first one's is wider by
// firstMS.
func marginAt(k int, m int64) int64 {
	if k == 0 {
		return m + firstMS
	}
	return m
}

// noiseOfRuns is the largest noise of runs.
func noiseOfRuns(runs []Run) time.Duration {
	var n time.Duration
	for _, r := range runs {
		n = max(n, r.Noise)
	}
	return n
}

// noiseNote is the noise for an inconclusive finding's evidence: "the
// host's noise was 130 ms".
func noiseNote(noise time.Duration) string {
	return fmt.Sprintf("the host's noise was %d ms (a %d ms margin)", noise.Milliseconds(), margin(noise))
}

// honoursWait judges the waits after every answer that asked for one (in
// retry-after or retry-after-ms): the next request must come at least that
// long after, and at most twice that and a second (a second of real time:
// N of the client's on a clock warped N times). A gap under the wait
// asked is a fail whatever the noise (the gap is an upper bound on the
// wait); one over the ceiling by no more than the noise could have made
// is inconclusive.
func honoursWait(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	var seen []string
	unsure := ""
	for i := 0; i+1 < len(att); i++ {
		e, next := att[i], att[i+1]
		if e.RetryAfterMS == nil || e.Kind == "ok" {
			continue
		}
		asked, gap := *e.RetryAfterMS, next.GapMS
		// The second is the client's own work, in real time: at N× it is
		// N seconds of the client's clock.
		ceiling := 2*asked + 1000*int64(max(1, r.Speed))
		switch {
		case gap < asked:
			return Fail, fmt.Sprintf("request %d came %s after a %d that asked for %s", next.N, seconds(ms(gap)), e.Status, seconds(ms(asked)))
		case gap > ceiling && gap-margin(r.Noise) > ceiling:
			return Fail, fmt.Sprintf("request %d came %s after a %d that asked for %s: over twice that and a second", next.N, seconds(ms(gap)), e.Status, seconds(ms(asked)))
		case gap > ceiling && unsure == "":
			unsure = fmt.Sprintf("request %d came %s after a %d that asked for %s, over twice that and a second by less than the noise: %s",
				next.N, seconds(ms(gap)), e.Status, seconds(ms(asked)), noiseNote(r.Noise))
		}
		seen = append(seen, fmt.Sprintf("%s for %s", seconds(ms(gap)), seconds(ms(asked))))
	}
	switch {
	case unsure != "":
		return Inconclusive, unsure
	case len(seen) == 0:
		return NotReached, r.unmet("followed an answer that asked for a wait")
	}
	return Pass, "waited " + strings.Join(seen, ", ")
}

// lowerMedian is the lower of the middles of xs: the typical gap, which
// no single long gap (a hiccup) can raise.
func lowerMedian(xs []int64) int64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
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
