package reports

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/faultbench/faultbench/ledger"
)

// A workload's timeline has a lane per strategy on the shared, broken time
// axis of html_axis.go: above, the requests the fleet had in flight, a
// step area from each request's send (at_ms less duration_ms) to when its
// result came back (at_ms), so a model's speed, a delay or a hang shows as
// the time a request holds its place; below, a bar at each instant some
// attempts were answered 429 or 529, as tall as how many were. Both
// scales are shared by the lanes, so the strategies compare at a glance.
const (
	fleetLane   = 92 // a strategy's lane
	fleetArea   = 44 // the height of the in-flight area at its peak
	fleetStrip  = 18 // the height of the tallest 429/529 bar
	fleetBarMin = 2.0
	// maxLevelTitles is the most levels of a lane's in-flight area that
	// get a tooltip each; a longer fleet's area is drawn without them, so
	// that the page grows with the fleet by its path alone.
	maxLevelTitles = 500
)

// fleetColors are the fill of the in-flight area and the colors of the
// 429 and 529 bars (those of the attempt marks).
const (
	inFlightColor = "#6e7fd6"
	rate429Color  = "#e8710a"
	over529Color  = "#cf222e"
)

// flight is a request's time in flight, in virtual milliseconds.
type flight struct{ from, to int64 }

// flights are a result's requests that took time: attempts and repair
// calls, each from its send to when its result came back.
func flights(r ledger.Result) []flight {
	var out []flight
	for _, log := range [][]ledger.Attempt{r.AttemptsLog, r.RepairLog} {
		for _, a := range log {
			if a.DurationMS > 0 {
				out = append(out, flight{a.AtMS - a.DurationMS, a.AtMS})
			}
		}
	}
	return out
}

// step is a level of the in-flight count from at on.
type step struct {
	at int64
	n  int
}

// inFlight is the count of requests in flight over time: a step at every
// instant it changes, a request that ends at an instant counted out before
// one that starts then is counted in.
func inFlight(fs []flight) []step {
	type edge struct {
		at    int64
		delta int
	}
	edges := make([]edge, 0, 2*len(fs))
	for _, f := range fs {
		edges = append(edges, edge{f.from, +1}, edge{f.to, -1})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		return cmp.Compare(a.delta, b.delta)
	})
	var out []step
	n := 0
	for _, e := range edges {
		n += e.delta
		if k := len(out); k > 0 && out[k-1].at == e.at {
			out[k-1].n = n
			continue
		}
		out = append(out, step{e.at, n})
	}
	return out
}

// refusals counts a result's attempts answered status, by the instant
// the answer came back, in time order.
func refusals(r ledger.Result, is func(ledger.Attempt) bool) []step {
	count := map[int64]int{}
	for _, a := range r.AttemptsLog {
		if is(a) {
			count[a.AtMS]++
		}
	}
	out := make([]step, 0, len(count))
	for at, n := range count {
		out = append(out, step{at, n})
	}
	slices.SortFunc(out, func(a, b step) int { return cmp.Compare(a.at, b.at) })
	return out
}

// writeFleetTimeline draws a workload scenario's lanes (see fleetLane).
func writeFleetTimeline(b *bytes.Buffer, g grouped, sc string) {
	type laneData struct {
		strategy string
		r        ledger.Result
		steps    []step
		r429     []step
		r529     []step
		peak     int
	}
	var lanes []laneData
	var instants []int64
	peak, most := 1, 1
	for _, st := range g.strategies {
		r, ok := g.cell(sc, st)
		if !ok {
			continue
		}
		l := laneData{strategy: st, r: r, steps: inFlight(flights(r)), r429: refusals(r, func(a ledger.Attempt) bool { return a.Status == 429 }), r529: refusals(r, ledger.Attempt.Overloaded)}
		for _, s := range l.steps {
			l.peak = max(l.peak, s.n)
			instants = append(instants, s.at)
		}
		for _, s := range append(l.r429[:len(l.r429):len(l.r429)], l.r529...) {
			most = max(most, s.n)
			instants = append(instants, s.at)
		}
		if w := r.Workload; w != nil {
			instants = append(instants, w.MakespanMS)
		}
		peak = max(peak, l.peak)
		lanes = append(lanes, l)
	}
	axis := newTimeAxis(instants, plotWidth)
	x := axis.x
	height := 8 + fleetLane*len(lanes) + axisHeight
	if len(axis.segs) > 1 {
		height += 12
	}
	fmt.Fprintf(b, "<svg class=\"timeline fleet\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n", svgWidth, height,
		esc("requests in flight and 429 and 529 answers for "+sc))
	axisY := 8 + fleetLane*len(lanes)
	writeAxis(b, axis, axisY)
	fmt.Fprintf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", gutter, axisY, svgWidth-rightMargin, axisY)
	fmt.Fprintf(b, "<text class=\"small\" x=\"%d\" y=\"%d\">virtual time</text>\n", 8, axisY+16)

	for i, l := range lanes {
		top := 8 + i*fleetLane
		base := top + 8 + fleetArea // the in-flight area's baseline
		fmt.Fprintf(b, "<g class=\"strategy-lane\" data-strategy=\"%s\">\n", esc(l.strategy))
		if i > 0 {
			fmt.Fprintf(b, "<line class=\"lane-sep\" x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", top, svgWidth, top)
		}
		fmt.Fprintf(b, "<text class=\"strategy\" x=\"8\" y=\"%d\"><title>%s</title>%s</text>\n", top+24, esc(l.strategy), esc(clip(l.strategy)))
		summary := orNoValue(string(l.r.Outcome))
		if w := l.r.Workload; w != nil {
			summary = fmt.Sprintf("%s/%s turns, %s", formatInt(int64(w.Succeeded)), formatInt(int64(w.Turns)), formatWait(w.MakespanMS))
		}
		fmt.Fprintf(b, "<text class=\"small\" x=\"8\" y=\"%d\" style=\"fill:%s\">%s</text>\n", top+39, outcomeColor(l.r.Outcome), esc(summary))
		fmt.Fprintf(b, "<text class=\"small\" x=\"8\" y=\"%d\">peak %d in flight</text>\n", top+54, l.peak)
		fmt.Fprintf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", gutter, base, svgWidth-rightMargin, base)
		writeInFlight(b, l.steps, x, base, peak)
		// A 429 bar just left of its instant, a 529 bar just right, so
		// both show when they fall together.
		for _, c := range []struct {
			steps []step
			color string
			what  string
			dx    float64
		}{{l.r429, rate429Color, "429", -3}, {l.r529, over529Color, "529", 0}} {
			for _, s := range c.steps {
				h := max(fleetBarMin, float64(fleetStrip)*float64(s.n)/float64(most))
				fmt.Fprintf(b, "<rect class=\"refusal s%s\" x=\"%s\" y=\"%d\" width=\"3\" height=\"%s\" fill=\"%s\"><title>%s</title></rect>\n",
					c.what, f1(x(s.at)+c.dx), base+4, f1(h), c.color,
					esc(fmt.Sprintf("%d %s answered %s at %s", s.n, plural(s.n, "attempt", "attempts"), c.what, formatWait(s.at))))
			}
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
}

// writeInFlight draws the in-flight count as a filled step area on
// baseline base, peak requests reaching fleetArea above it, with the
// count at each level in a tooltip (up to maxLevelTitles levels).
func writeInFlight(b *bytes.Buffer, steps []step, x func(int64) float64, base, peak int) {
	if len(steps) == 0 {
		return
	}
	y := func(n int) float64 { return float64(base) - float64(fleetArea)*float64(n)/float64(peak) }
	var path bytes.Buffer
	fmt.Fprintf(&path, "M%s %d", f1(x(steps[0].at)), base)
	for _, s := range steps {
		fmt.Fprintf(&path, "H%sV%s", f1(x(s.at)), f1(y(s.n)))
	}
	path.WriteString("Z")
	fmt.Fprintf(b, "<path class=\"in-flight\" d=\"%s\" fill=\"%s\" fill-opacity=\"0.55\" stroke=\"%s\" stroke-width=\"1\"/>\n",
		path.String(), inFlightColor, inFlightColor)
	if len(steps) > maxLevelTitles {
		return
	}
	for i, s := range steps[:len(steps)-1] {
		if s.n == 0 {
			continue
		}
		to := steps[i+1].at
		fmt.Fprintf(b, "<rect class=\"in-flight-level\" x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill-opacity=\"0\"><title>%s</title></rect>\n",
			f1(x(s.at)), f1(y(s.n)), f1(max(x(to)-x(s.at), 0)), f1(float64(base)-y(s.n)),
			esc(fmt.Sprintf("%d in flight from %s to %s", s.n, formatWait(s.at), formatWait(to))))
	}
}

// fleetNote says how to read a workload's timeline.
const fleetNote = "Per strategy: above the line, the requests in flight (each from its send to its answer); " +
	"below it, a bar where attempts were answered 429 (orange) or 529 (red), as tall as how many. " +
	"The scales are shared by the strategies."
