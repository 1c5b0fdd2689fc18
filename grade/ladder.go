package grade

import (
	"fmt"
	"slices"
)

// The Retry-After ladder: one scenario per rung, each a 429 asking for a
// wait (30, 59, 60, 61, 120, 121 or 600 s, or no retry-after at all) and
// then the answer. Every client has a ceiling — the longest wait it keeps
// — and does one of four things above it: waits anyway, falls back to
// its own backoff, gives up, or caps the wait. The ladder finds both, and
// each rung's finding says them beside what the rung saw.

// ordinaryAsk is the longest wait an API's rate limit ordinarily asks
// for: Anthropic's and OpenAI's limits refill within a minute. A client
// that does not keep a wait up to it retries into a limit that is still
// closed, and fails the rung.
const ordinaryAsk = 60_000

// rung is what one ladder scenario saw: the wait asked (-1 without
// retry-after), and the client's answer to it.
type rung struct {
	asked int64
	// kept says the next request came no sooner than asked.
	kept bool
	// next says a request followed the 429; gap is its gap.
	next bool
	gap  int64
}

// rungOf reads one ladder run; ok is false when no 429 was met.
func rungOf(r Run) (rung, bool) {
	att := r.judged()
	if len(att) == 0 || att[0].Status != 429 {
		return rung{}, false
	}
	g := rung{asked: -1}
	if a := att[0].RetryAfterMS; a != nil {
		g.asked = *a
	}
	if len(att) > 1 {
		g.next, g.gap = true, att[1].GapMS
		g.kept = g.asked >= 0 && g.gap >= g.asked
	}
	return g, true
}

// ceiling is the longest wait the client kept below the first it did not
// (0 when it kept none), and that first rung; ok is false when it kept
// every rung that asked. unsure is a rung kept by a gap the margin m
// could have made of a wait under half the ask (a backoff lengthened by
// the noise), below the first one not kept: the ceiling is then not
// known.
func ceiling(rs []rung, m int64) (top int64, above rung, ok bool, unsure *rung) {
	asked := slices.DeleteFunc(slices.Clone(rs), func(g rung) bool { return g.asked < 0 })
	slices.SortFunc(asked, func(a, b rung) int { return int(a.asked - b.asked) })
	for i, g := range asked {
		if !g.kept {
			return top, g, true, unsure
		}
		if unsure == nil && 2*(g.gap-m) < g.asked {
			unsure = &asked[i]
		}
		top = g.asked
	}
	return top, rung{}, false, unsure
}

// aboveCeiling names what a client does with a wait over its ceiling: it
// gives up, caps the wait, or falls back to its backoff. A gap bounds the
// wait from above, and from below up to the margin m: a wait of half the
// ceiling or more is a cap, a gap under half of it a backoff, and between
// the two the noise could have made either.
func aboveCeiling(top int64, g rung, m int64) string {
	switch {
	case !g.next:
		return "gives up"
	case top > 0 && 2*(g.gap-m) >= top:
		return "caps the wait at " + seconds(ms(g.gap))
	case 2*g.gap < top || top == 0:
		return "falls back to its backoff (retried after " + seconds(ms(g.gap)) + ")"
	}
	return "retries after " + seconds(ms(g.gap)) + " (a cap or a backoff: the noise could have made either)"
}

// policy states the ladder's finding over every rung: "ceiling 60 s;
// above it gives up".
func policy(rs []rung, m int64) (string, bool) {
	top, above, refused, unsure := ceiling(rs, m)
	if unsure != nil {
		return fmt.Sprintf("ceiling unknown: the %s gap after the %s rung could be a shorter wait and the host's noise (a %s margin)",
			seconds(ms(unsure.gap)), seconds(ms(unsure.asked)), seconds(ms(m))), false
	}
	return stated(top, above, refused, m), true
}

// stated words a ceiling the noise could not have made.
func stated(top int64, above rung, refused bool, m int64) string {
	if !refused {
		if top == 0 {
			return "no rung asked for a wait"
		}
		return fmt.Sprintf("no ceiling: kept every wait asked, up to %s", seconds(ms(top)))
	}
	if top == 0 {
		return fmt.Sprintf("no ceiling kept: at %s it %s", seconds(ms(above.asked)), aboveCeiling(top, above, m))
	}
	return fmt.Sprintf("ceiling %s; above it %s", seconds(ms(top)), aboveCeiling(top, above, m))
}

// ladder judges each rung, and states the client's ceiling on every
// finding: a wait up to ordinaryAsk must be kept; above its ceiling the
// client may give up (with a failing exit), cap or fall back, but not
// retry at once into the limit, report a success it did not get, or
// still be at it when the timeout strikes. A 429 without retry-after
// must be retried, after a wait of the client's choosing.
func ladder(runs []Run, _ Bounds) []Finding {
	rs := make([]rung, len(runs))
	met := make([]bool, len(runs))
	for i, r := range runs {
		rs[i], met[i] = rungOf(r)
	}
	var seen []rung
	for i := range rs {
		if met[i] {
			seen = append(seen, rs[i])
		}
	}
	m := margin(noiseOfRuns(runs))
	said, known := policy(seen, m)
	out := make([]Finding, len(runs))
	for i, r := range runs {
		g := rs[i]
		st, ev := rungVerdict(r, g)
		switch {
		case !met[i]:
			st, ev = NotReached, r.unmet("met the rung's 429")
		case !known && st == Pass:
			st = Inconclusive
		}
		out[i] = Finding{Status: st, Evidence: ev + "; " + said}
	}
	return out
}

// rungVerdict judges one rung the client met.
func rungVerdict(r Run, g rung) (Status, string) {
	asked := "a 429 without retry-after"
	if g.asked >= 0 {
		asked = "a 429 asking " + seconds(ms(g.asked))
	}
	switch {
	case r.TimedOut:
		return Fail, "after " + asked + ", " + r.ended()
	case !g.next && r.Exit == 0 && r.Err == nil:
		return Fail, "reported success although it gave up on " + asked
	case !g.next && (g.asked < 0 || g.asked <= ordinaryAsk):
		return Fail, fmt.Sprintf("gave up on %s (%s)", asked, r.ended())
	case !g.next:
		return Pass, fmt.Sprintf("gave up on %s (%s)", asked, r.ended())
	case g.kept:
		return Pass, fmt.Sprintf("waited %s on %s", seconds(ms(g.gap)), asked)
	case g.asked < 0:
		return Pass, fmt.Sprintf("waited %s on %s", seconds(ms(g.gap)), asked)
	case g.asked <= ordinaryAsk:
		return Fail, fmt.Sprintf("retried %s after %s: sooner than asked", seconds(ms(g.gap)), asked)
	case g.gap <= atOnceMS: // noise only lengthens a gap: this one holds no wait
		return Fail, fmt.Sprintf("retried %s after %s: at once, into a limit still closed", seconds(ms(g.gap)), asked)
	}
	return Pass, fmt.Sprintf("retried %s after %s", seconds(ms(g.gap)), asked)
}

// Documented are the Retry-After ceilings of real clients, from their own
// code (late 2026), that a card prints beside the ceiling the ladder
// found: what each documented policy predicts.
const Documented = "Documented ceilings: none (anthropic-sdk-typescript 0.120, the Anthropic Go SDK, opencode); " +
	"60 s, then backoff (anthropic-sdk-python 0.121, openai-node 7.5, the AI SDK); 60 s, then gives up (Claude Code 2.1.272); " +
	"120 s, then gives up (openai-python since openai-python#3555, openai-go); capped (LlamaIndex 120 s, pydantic-ai 300 s, hermes-agent 600 s)."
