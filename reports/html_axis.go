package reports

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/faultbench/faultbench/ledger"
)

// The time axis of the timelines is shared by every strategy of a scenario
// and broken: a quiet stretch in which no strategy sends or receives
// anything, and which dwarfs the rest of the timeline, is drawn as a short
// break labelled with its length instead of at scale. So a run sixty times
// longer than another (an hour's retry-after against a minute of backoff, a
// ten-minute hang) leaves the others readable, and the lanes still compare
// on one clock, which a scale per row would give up.
const (
	breakWidth = 64    // what a break takes on the axis
	minBreakMS = 5_000 // a stretch shorter than this is never broken
	breakRatio = 2     // broken when longer than this many times all the unbroken time else
	tickClear  = 30.0  // no tick label this close before a break
	maxTicks   = 64    // ticks drawn in one stretch, whatever its times
	idleSpan   = 1_000 // the axis of a scenario in which no time passed
	breakFill  = "#f6f8fa"
	busyAlpha  = "0.45" // opacity of the bar of an attempt that took time
)

// segment is a stretch of the axis: drawn at scale, or broken.
type segment struct {
	from, to int64 // virtual milliseconds
	x0       float64
	broken   bool
}

// timeAxis maps virtual time to x: a run of segments covering [0, span].
type timeAxis struct {
	segs  []segment
	scale float64 // units per millisecond in unbroken segments
	span  int64
	idle  bool // no time passed at all
}

// x is where virtual time ms falls on the axis.
func (a timeAxis) x(ms int64) float64 {
	for _, s := range a.segs {
		if ms > s.to {
			continue
		}
		if s.broken {
			return s.x0 + breakWidth*float64(ms-s.from)/float64(s.to-s.from)
		}
		return s.x0 + a.scale*float64(ms-s.from)
	}
	if n := len(a.segs); n > 0 {
		return a.x(a.segs[n-1].to)
	}
	return gutter
}

// newTimeAxis lays out an axis over the given instants (the sends and ends
// of every attempt of every strategy, and the ends of their sleeps), with
// room width for time once reserve is kept for nudged marks. A gap between
// two consecutive instants is broken, longest first, while it is at least
// minBreakMS and more than breakRatio times the unbroken time left besides.
func newTimeAxis(instants []int64, room float64) timeAxis {
	ts := slices.Clone(instants)
	ts = append(ts, 0)
	slices.Sort(ts)
	ts = slices.Compact(ts)
	span := ts[len(ts)-1]
	if span == 0 {
		return timeAxis{segs: []segment{{0, idleSpan, gutter, false}}, scale: room / idleSpan, span: idleSpan, idle: true}
	}
	gaps := make([]int, len(ts)-1) // indexes of the gaps, longest first
	for i := range gaps {
		gaps[i] = i
	}
	gap := func(i int) int64 { return ts[i+1] - ts[i] }
	slices.SortStableFunc(gaps, func(a, b int) int { return int(gap(b) - gap(a)) })
	broken := make([]bool, len(ts)-1)
	unbroken := span
	for _, i := range gaps {
		rest := unbroken - gap(i)
		if gap(i) < minBreakMS || rest <= 0 || gap(i) <= breakRatio*rest {
			break
		}
		broken[i], unbroken = true, rest
	}
	var segs []segment
	for i := range broken {
		if n := len(segs); n > 0 && !broken[i] && !segs[n-1].broken {
			segs[n-1].to = ts[i+1] // extend the stretch drawn at scale
			continue
		}
		segs = append(segs, segment{from: ts[i], to: ts[i+1], broken: broken[i]})
	}
	breaks := 0
	for _, s := range segs {
		if s.broken {
			breaks++
		}
	}
	scale := (room - float64(breaks*breakWidth)) / float64(unbroken)
	x := float64(gutter)
	for i := range segs {
		segs[i].x0 = x
		if segs[i].broken {
			x += breakWidth
		} else {
			x += scale * float64(segs[i].to-segs[i].from)
		}
	}
	return timeAxis{segs: segs, scale: scale, span: span}
}

// writeAxis draws the grid, the ticks and the breaks of the axis under
// lanes of total height bottom-8: ticks one step apart in each stretch drawn
// at scale, the first after a break labelled with its time and the others
// with the time since ("+2s"); a break as a shaded band across the lanes
// with its length. An idle axis (no time passed) has no ticks: only 0s.
func writeAxis(b *bytes.Buffer, a timeAxis, bottom int) {
	tick := func(ms int64, label string) {
		x := f1(a.x(ms))
		fmt.Fprintf(b, "<line class=\"grid\" x1=\"%s\" y1=\"8\" x2=\"%s\" y2=\"%d\"/>\n", x, x, bottom)
		fmt.Fprintf(b, "<line class=\"axis\" x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\"/>\n", x, bottom, x, bottom+4)
		fmt.Fprintf(b, "<text class=\"small\" x=\"%s\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, bottom+16, esc(label))
	}
	if a.idle {
		tick(0, "0s")
		return
	}
	var drawn int64
	for _, s := range a.segs {
		if !s.broken {
			drawn += s.to - s.from
		}
	}
	step := tickStep(drawn)
	for i, s := range a.segs {
		if s.broken {
			x0, x1 := a.x(s.from), a.x(s.to)
			fmt.Fprintf(b, "<rect class=\"axis-break\" x=\"%s\" y=\"8\" width=\"%s\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>\n",
				f1(x0), f1(x1-x0), bottom-8, breakFill, esc(fmt.Sprintf("%s not drawn to scale (%s to %s): no strategy sent or received anything",
					formatWait(s.to-s.from), formatWait(s.from), formatWait(s.to))))
			for _, x := range []float64{x0, x1} {
				fmt.Fprintf(b, "<line class=\"axis-break-edge\" x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\"/>\n", f1(x-3), bottom+5, f1(x+3), bottom-5)
			}
			fmt.Fprintf(b, "<text class=\"small break-label\" x=\"%s\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
				f1((x0+x1)/2), bottom+28, esc("skip "+formatWait(s.to-s.from)))
			if i == len(a.segs)-1 { // nothing after the break: say when it ends
				tick(s.to, formatWait(s.to))
			}
			continue
		}
		after := i > 0 // this stretch follows a break
		nextBreak := float64(svgWidth)
		if i+1 < len(a.segs) {
			nextBreak = a.x(s.to)
		}
		// At most maxTicks, and never past the largest int64: a forged
		// report's times need not be a ledger's.
		for t, n := s.from, 0; t <= s.to && n < maxTicks; t, n = t+step, n+1 {
			if t > s.from && a.x(t) > nextBreak-tickClear {
				break
			}
			label := formatWait(t)
			if after && t > s.from {
				label = "+" + formatWait(t-s.from)
			}
			tick(t, label)
			if t > math.MaxInt64-step {
				break
			}
		}
	}
}

// timed is an attempt or repair call with the time it was sent, worked out
// from the record: the engine sends one request at a time, so a request is
// sent when the one before it came back (at_ms) and its wait before it
// passed. A hung attempt is sent long before it comes back.
type timed struct {
	a      ledger.Attempt
	sentMS int64
}

// sendTimes gives each attempt and repair call of r its send time, in the
// order of the logs.
func sendTimes(r ledger.Result) (attempts, repairs []timed) {
	attempts, repairs = make([]timed, len(r.AttemptsLog)), make([]timed, len(r.RepairLog))
	var prev int64
	i, j := 0, 0
	for i < len(r.AttemptsLog) || j < len(r.RepairLog) {
		var a ledger.Attempt
		var into *timed
		if j >= len(r.RepairLog) || (i < len(r.AttemptsLog) && r.AttemptsLog[i].AtMS <= r.RepairLog[j].AtMS) {
			a, into = r.AttemptsLog[i], &attempts[i]
			i++
		} else {
			a, into = r.RepairLog[j], &repairs[j]
			j++
		}
		sent := min(max(prev+a.WaitBeforeMS, 0), a.AtMS)
		*into = timed{a: a, sentMS: sent}
		prev = max(prev, a.AtMS)
	}
	return attempts, repairs
}
