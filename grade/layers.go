package grade

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/mockllm"
)

// layered judges a scenario whose fault never passes by the retry loops
// the client's attempts show: one loop passes, loops nested inside each
// other fail, for their attempts multiply (an SDK's 2 retries under an
// app's 3 make 9 requests where either alone makes 3 or 4).
//
// The loops are read first from X-Stainless-Retry-Count, which the
// official SDKs send on every attempt, counting from 0: a count that
// falls back (to 0, or to no more than the one before) begins another
// round of the inner loop, and the rounds are the outer loop's
// attempts. Without that header on every attempt, from the gaps: a
// backoff that starts over — a gap under half the one before it, that
// one longer than the noise could make — begins a round; that reading
// is taken only when it repeats, two restarts or more into rounds of one
// length, for a random wait alone falls by half now and then.
func layered(r Run, _ Bounds) (Status, string) {
	att := r.judged()
	n := len(att)
	switch {
	case n == 0:
		return NotReached, r.unmet("met the scenario's fault")
	case answered(att[0].Kind):
		return NotReached, "the script's first answer was complete: the fault was not met"
	}
	rounds, from := roundsOf(att, r.Noise)
	fault := what(att[0].Status, att[0].Kind)
	if len(rounds) == 1 {
		return Pass, fmt.Sprintf("1 layer: %d %s on a persistent %s (%s; %s)", n, plural(n, "attempt"), fault, from, r.ended())
	}
	return Fail, fmt.Sprintf("2 layers: %s on a persistent %s (%s; %s): nested retry loops multiply; keep one (turn the SDK's retries off under your own, or yours off over the SDK's)",
		product(rounds), fault, from, r.ended())
}

// roundsOf splits the attempts into the rounds of an inner retry loop,
// and says what it read them from: each round's attempts, in order; one
// round when the attempts show one loop.
func roundsOf(att []mockllm.Entry, noise time.Duration) ([]int, string) {
	counts := make([]int, len(att))
	for i, e := range att {
		if e.RetryCount == nil {
			counts = nil
			break
		}
		counts[i] = *e.RetryCount
	}
	if counts != nil {
		var rounds []int
		for i, c := range counts {
			if i == 0 || c <= counts[i-1] {
				rounds = append(rounds, 0)
			}
			rounds[len(rounds)-1]++
		}
		if slices.Max(rounds[:max(1, len(rounds)-1)]) == 1 { // the inner loop never retried: the retries are one loop's
			rounds = []int{len(att)}
		}
		return rounds, "X-Stainless-Retry-Count " + countList(counts)
	}
	// From the gaps: attempt i+1's gap under half of attempt i's, and
	// attempt i's a wait the noise could not make, restarts the backoff
	// at attempt i (the outer loop's wait is the gap before it).
	floor := 2 * margin(noise)
	starts := []int{0}
	for i := 1; i+1 < len(att); i++ {
		g, next := att[i].GapMS, att[i+1].GapMS
		if g > floor && 2*next < g && i-starts[len(starts)-1] >= 2 {
			starts = append(starts, i)
		}
	}
	var rounds []int
	for k, s := range starts {
		end := len(att)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		rounds = append(rounds, end-s)
	}
	if len(rounds) < 3 || !even(rounds[:len(rounds)-1]) {
		return []int{len(att)}, "no X-Stainless-Retry-Count; the gaps show no backoff that starts over"
	}
	return rounds, "no X-Stainless-Retry-Count; the backoff starts over, gaps " + gapList(failureGapsOf(att))
}

// even says whether every round has the same attempts.
func even(rounds []int) bool {
	for _, r := range rounds {
		if r != rounds[0] {
			return false
		}
	}
	return true
}

// product writes rounds as the attempts they multiply to: "3 × 3 = 9
// attempts", or when the last round was cut short "3 rounds of 3, 3, 2 =
// 8 attempts".
func product(rounds []int) string {
	total := 0
	for _, r := range rounds {
		total += r
	}
	if even(rounds) {
		return fmt.Sprintf("%d × %d = %d attempts", len(rounds), rounds[0], total)
	}
	parts := make([]string, len(rounds))
	for i, r := range rounds {
		parts[i] = strconv.Itoa(r)
	}
	return fmt.Sprintf("%d rounds of %s = %d attempts", len(rounds), strings.Join(parts, ", "), total)
}

// countList writes retry counts for evidence, "0, 1, 2, 0, 1, 2", at
// most 18 of them.
func countList(counts []int) string {
	const most = 18
	parts := make([]string, 0, min(len(counts), most)+1)
	for i, c := range counts {
		if i == most {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, strconv.Itoa(c))
	}
	return strings.Join(parts, ", ")
}

// failureGapsOf are the gaps before the attempts after the first.
func failureGapsOf(att []mockllm.Entry) []int64 {
	out := make([]int64, 0, len(att))
	for _, e := range att[1:] {
		out = append(out, e.GapMS)
	}
	return out
}
