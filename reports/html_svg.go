package reports

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/ledger"
)

// answerClass is a family of answers an attempt can get, with its color.
type answerClass struct {
	name, label, color string
	kinds              []string // the classifier's kinds that fall in it
}

// answerClasses color the timeline marks, in legend order.
var answerClasses = []answerClass{
	{"ok", "answer (200)", "#1a7f37", []string{"ok"}},
	{"cut", "truncated, empty or refused (200)", "#d4a72c", []string{"truncated", "empty_response", "refusal"}},
	{"rate", "rate limit or quota (429)", "#e8710a", []string{"rate_limit", "quota_exhausted"}},
	{"overloaded", "overloaded (529)", "#cf222e", []string{"overloaded"}},
	{"server", "server error (5xx, 409)", "#bf3989", []string{"server", "conflict"}},
	{"request", "request rejected (400, 413, 422)", "#8250df", []string{"context_overflow", "request_too_large", "invalid_request"}},
	{"access", "auth, permission, not found (401, 403, 404)", "#0969da", []string{"auth", "permission", "not_found"}},
	{"transport", "connection, timeout, cancelled", "#24292f", []string{"connection", "timeout", "cancelled"}},
	{"other", "anything else", "#8c959f", nil},
}

// classOf is the class of what an attempt got back: by the kind the
// classifier gave it, else by its status.
func classOf(a ledger.Attempt) answerClass {
	for _, c := range answerClasses {
		for _, k := range c.kinds {
			if a.Kind == k {
				return c
			}
		}
	}
	byName := func(name string) answerClass {
		for _, c := range answerClasses {
			if c.name == name {
				return c
			}
		}
		return answerClasses[len(answerClasses)-1]
	}
	switch s := a.Status; {
	case s == 200 && a.Kind == "":
		return byName("ok")
	case s == 429:
		return byName("rate")
	case s == 529:
		return byName("overloaded")
	case s >= 500 || s == 409:
		return byName("server")
	case s == 400 || s == 413 || s == 422:
		return byName("request")
	case s == 401 || s == 403 || s == 404:
		return byName("access")
	case s == 0:
		return byName("transport")
	}
	return byName("other")
}

// Timeline geometry, in SVG user units (pixels at 100 %).
const (
	svgWidth    = 1000
	gutter      = 160 // strategy names and outcomes
	rightMargin = 24
	plotWidth   = svgWidth - gutter - rightMargin
	laneHeight  = 46 // a lane with attempts only
	repairRow   = 20 // added to every lane when any strategy made repair calls
	axisHeight  = 30
	markWidth   = 10
	markHeight  = 18
	labelGap    = 26 // marks closer than this lose their status labels
)

// placed is a mark laid out on a lane.
type placed struct {
	a ledger.Attempt
	x float64
}

// layout places marks on the time axis: each at its virtual time, nudged
// right to keep minGap from the one before, so marks sent at the same
// instant (a compaction, an escalation) stay apart. A mark's x never passes
// its time's x by more than its index times minGap, which the caller's
// scale leaves room for.
func layout(as []ledger.Attempt, x func(int64) float64, minGap float64) []placed {
	out := make([]placed, len(as))
	for i, a := range as {
		out[i] = placed{a: a, x: x(a.AtMS)}
		if i > 0 && out[i].x < out[i-1].x+minGap {
			out[i].x = out[i-1].x + minGap
		}
	}
	return out
}

// trailingSleep is the time a strategy slept after its final attempt: its
// total wait less the waits before its attempts and repair calls.
func trailingSleep(r ledger.Result) int64 {
	rest := r.WaitMS
	for _, a := range r.AttemptsLog {
		rest -= a.WaitBeforeMS
	}
	for _, a := range r.RepairLog {
		rest -= a.WaitBeforeMS
	}
	return max(rest, 0)
}

// writeTimeline draws one scenario's timeline: a lane per strategy, time
// running right on a shared, broken axis (see timeAxis). An attempt that
// took time — a hang until the client's deadline, a slow stream — is drawn
// as a bar from when it was sent to its mark, when it ended.
func writeTimeline(b *bytes.Buffer, g grouped, sc string) {
	type laneData struct {
		strategy         string
		r                ledger.Result
		attempts, repair []timed
	}
	var lanes []laneData
	var instants []int64
	most, repairs := 1, false
	for _, st := range g.strategies {
		r, ok := g.cell(sc, st)
		if !ok {
			continue
		}
		as, rs := sendTimes(r)
		lanes = append(lanes, laneData{st, r, as, rs})
		last := int64(0)
		for _, t := range append(as[:len(as):len(as)], rs...) {
			instants = append(instants, t.sentMS, t.a.AtMS)
			last = max(last, t.a.AtMS)
		}
		instants = append(instants, last+trailingSleep(r))
		most = max(most, len(r.AttemptsLog)+1, len(r.RepairLog)+1)
		repairs = repairs || len(r.RepairLog) > 0
	}
	// Nudges may take up to three quarters of the plot; the rest is time.
	minGap := min(float64(labelGap), plotWidth*3/4/float64(most))
	axis := newTimeAxis(instants, plotWidth-float64(most)*minGap)
	x := axis.x

	lh := laneHeight
	if repairs {
		lh += repairRow
	}
	height := 8 + lh*len(lanes) + axisHeight
	if len(axis.segs) > 1 {
		height += 12 // the breaks' labels
	}
	fmt.Fprintf(b, "<svg class=\"timeline\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n", svgWidth, height,
		esc("timeline of attempts for "+sc))

	// The axis and its grid.
	axisY := 8 + lh*len(lanes)
	writeAxis(b, axis, axisY)
	fmt.Fprintf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", gutter, axisY, svgWidth-rightMargin, axisY)
	fmt.Fprintf(b, "<text class=\"small\" x=\"%d\" y=\"%d\">virtual time</text>\n", 8, axisY+16)
	if axis.idle {
		fmt.Fprintf(b, "<text class=\"small\" x=\"%d\" y=\"%d\" text-anchor=\"end\">no time passed: every attempt at 0s, drawn side by side</text>\n",
			svgWidth-rightMargin, axisY+16)
	}

	for i, l := range lanes {
		top := 8 + i*lh
		rowY := top + 26 // centre of the attempt marks
		fmt.Fprintf(b, "<g class=\"strategy-lane\" data-strategy=\"%s\">\n", esc(l.strategy))
		fmt.Fprintf(b, "<text class=\"strategy\" x=\"8\" y=\"%d\"><title>%s</title>%s</text>\n", rowY-2, esc(l.strategy), esc(clip(l.strategy)))
		fmt.Fprintf(b, "<text class=\"small\" x=\"8\" y=\"%d\" style=\"fill:%s\">%s, %s</text>\n", rowY+13,
			outcomeColor(l.r.Outcome), esc(orNoValue(string(l.r.Outcome))), esc("waited "+formatWait(l.r.WaitMS)))
		if i > 0 {
			fmt.Fprintf(b, "<line class=\"lane-sep\" x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", top, svgWidth, top)
		}

		marks := layout(l.r.AttemptsLog, x, minGap)
		end := float64(gutter)
		if len(marks) > 0 {
			end = marks[len(marks)-1].x
		}
		// Each attempt that took time, as a bar from its send to its end;
		// the waits as gaps from the end before to the send.
		prev := float64(gutter)
		for j, m := range marks {
			sent := l.attempts[j].sentMS
			xs := max(x(sent), prev)
			if took := m.a.AtMS - sent; took > roundingMS {
				writeBusy(b, xs, m, rowY, took, sent)
			} else {
				xs = m.x
			}
			if j > 0 && m.a.WaitBeforeMS > 0 {
				writeGap(b, prev, xs, rowY, "wait", formatWait(m.a.WaitBeforeMS),
					"waited "+formatWait(m.a.WaitBeforeMS)+" before attempt "+strconv.Itoa(m.a.N))
			}
			prev = m.x
		}
		if sleep := trailingSleep(l.r); sleep > 0 {
			lastAt := int64(0)
			if n := len(l.r.AttemptsLog); n > 0 {
				lastAt = l.r.AttemptsLog[n-1].AtMS
			}
			to := max(x(lastAt+sleep), end+minGap)
			writeGap(b, end, to, rowY, "sleep", "slept "+formatWait(sleep)+" after the final attempt",
				"slept "+formatWait(sleep)+" after the final attempt: nothing came after it")
		}
		for _, m := range marks {
			writeMark(b, m, rowY, minGap >= labelGap, false)
		}
		if len(l.r.RepairLog) > 0 {
			fmt.Fprintf(b, "<text class=\"small\" x=\"8\" y=\"%d\">repair calls</text>\n", rowY+repairRow+8)
			for _, m := range layout(l.r.RepairLog, x, minGap) {
				writeMark(b, m, rowY+repairRow+4, false, true)
			}
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
}

// roundingMS is how far a send time inferred from whole milliseconds may
// miss: a wait of 1,636.7 ms is recorded as 1,636. An attempt is drawn as
// taking time only beyond it.
const roundingMS = 1

// writeBusy draws an attempt that took time (took ms from sent) as a bar
// in its class's color from its send, at from, to its mark: "hung 10m"
// when no answer came, "took 3s" when one did, slowly.
func writeBusy(b *bytes.Buffer, from float64, m placed, rowY int, took, sent int64) {
	x1 := m.x - markWidth/2
	if x1 <= from {
		return
	}
	verb := "took"
	if m.a.Status == 0 || m.a.Kind == "timeout" { // no answer, or one that stopped coming
		verb = "hung"
	}
	label := verb + " " + formatWait(took)
	title := fmt.Sprintf("attempt %d %s %s: sent at %s, ended at %s", m.a.N, verb, formatWait(took), formatWait(sent), formatWait(m.a.AtMS))
	fmt.Fprintf(b, "<rect class=\"busy\" x=\"%s\" y=\"%d\" width=\"%s\" height=\"10\" rx=\"2\" fill=\"%s\" fill-opacity=\"%s\"><title>%s</title></rect>\n",
		f1(from), rowY-5, f1(x1-from), classOf(m.a).color, busyAlpha, esc(title))
	if float64(len(label))*6 < x1-from {
		fmt.Fprintf(b, "<text class=\"small\" x=\"%s\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", f1((from+x1)/2), rowY+16, esc(label))
	}
}

// writeGap draws a wait (a plain bar) or a sleep after the final attempt (a
// hatched bar) between two marks, labelled when there is room.
func writeGap(b *bytes.Buffer, from, to float64, rowY int, kind, label, title string) {
	x0, x1 := from+markWidth/2+2, to-markWidth/2-2
	fill, stroke := "#9ec5fe", "none"
	if kind == "sleep" {
		x1, fill, stroke = to, "url(#hatch)", "#e06666"
	}
	if x1 <= x0 {
		return
	}
	fmt.Fprintf(b, "<rect class=\"%s\" x=\"%s\" y=\"%d\" width=\"%s\" height=\"6\" fill=\"%s\" stroke=\"%s\" stroke-width=\"0.8\"><title>%s</title></rect>\n",
		kind, f1(x0), rowY-3, f1(x1-x0), fill, stroke, esc(title))
	if float64(len(label))*6 < x1-x0 {
		fmt.Fprintf(b, "<text class=\"small\" x=\"%s\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", f1((x0+x1)/2), rowY+16, esc(label))
	}
}

// writeMark draws one attempt (a bar) or repair call (a diamond) in its
// class's color, its status above it when there is room, and its figures
// as a tooltip.
func writeMark(b *bytes.Buffer, m placed, y int, label, repair bool) {
	c := classOf(m.a)
	what := "attempt"
	if repair {
		what = "repair call"
	}
	title := fmt.Sprintf("%s %d at %s", what, m.a.N, formatWait(m.a.AtMS))
	if m.a.WaitBeforeMS > 0 {
		title += " (waited " + formatWait(m.a.WaitBeforeMS) + ")"
	}
	title += fmt.Sprintf("\nmodel %s, max_tokens %s\ninput %s tokens\n-> %s", m.a.Model, formatInt(int64(m.a.MaxTokens)),
		formatInt(int64(m.a.InputTokens)), answer(m.a))
	if c := attemptCost(m.a); c != "" {
		title += "\n" + strings.TrimPrefix(strings.ReplaceAll(c, "; ", "\n"), "\n")
	}
	if repair {
		fmt.Fprintf(b, "<rect class=\"mark repair %s\" x=\"%s\" y=\"%s\" width=\"8\" height=\"8\" fill=\"%s\" transform=\"rotate(45 %s %d)\"><title>%s</title></rect>\n",
			c.name, f1(m.x-4), f1(float64(y)-4), c.color, f1(m.x), y, esc(title))
		return
	}
	fmt.Fprintf(b, "<rect class=\"mark %s\" x=\"%s\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"2\" fill=\"%s\"><title>%s</title></rect>\n",
		c.name, f1(m.x-markWidth/2), y-markHeight/2, markWidth, markHeight, c.color, esc(title))
	if label {
		status := strconv.Itoa(m.a.Status)
		if m.a.Status == 0 {
			status = "-"
		}
		fmt.Fprintf(b, "<text class=\"label\" x=\"%s\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", f1(m.x), y-markHeight/2-3, status)
	}
}

// outcomeColor colors an outcome as the marks are colored.
func outcomeColor(o ledger.Outcome) string {
	switch o {
	case ledger.OutcomeSuccess:
		return "#1a7f37"
	case ledger.OutcomeTruncated:
		return "#9a6700"
	case ledger.OutcomeFailed:
		return "#cf222e"
	}
	return "#59636e"
}

// tickSteps are the spacings the time axis may use.
var tickSteps = []int64{100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000,
	300_000, 600_000, 900_000, 1_800_000, 3_600_000}

// tickStep picks the smallest spacing that puts at most eight ticks on an
// axis of span milliseconds.
func tickStep(span int64) int64 {
	for _, s := range tickSteps {
		if span/s <= 8 {
			return s
		}
	}
	return (span/8/3_600_000 + 1) * 3_600_000
}

// clip shortens a strategy name to what the gutter holds, the whole name
// left in a tooltip.
func clip(name string) string {
	const most = 20 // runes, at 13px bold in a 160-unit gutter
	if r := []rune(name); len(r) > most {
		return string(r[:most-3]) + "..."
	}
	return name
}

// f1 writes a coordinate with one decimal, the same bytes everywhere.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// writeTokenBars draws, per strategy, a bar of the input tokens it
// submitted: attempts and repair calls stacked, labelled with the figures.
func writeTokenBars(b *bytes.Buffer, g grouped, sc string) {
	var rs []ledger.Result
	most := 0
	for _, st := range g.strategies {
		if r, ok := g.cell(sc, st); ok {
			rs = append(rs, r)
			most = max(most, r.Exposure())
		}
	}
	const row, barWidth = 26, plotWidth * 0.6
	height := 8 + row*len(rs)
	fmt.Fprintf(b, "<svg class=\"tokens\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n", svgWidth, height,
		esc("input tokens submitted for "+sc))
	for i, r := range rs {
		y := 8 + i*row
		fmt.Fprintf(b, "<text class=\"strategy\" x=\"8\" y=\"%d\"><title>%s</title>%s</text>\n", y+14, esc(r.Strategy), esc(clip(r.Strategy)))
		w1, w2 := 0.0, 0.0
		if most > 0 {
			w1 = barWidth * float64(r.SubmittedInputTokens) / float64(most)
			w2 = barWidth * float64(r.RepairInputTokens) / float64(most)
		}
		fmt.Fprintf(b, "<rect class=\"submitted\" x=\"%d\" y=\"%d\" width=\"%s\" height=\"16\" fill=\"#6e7fd6\"><title>%s</title></rect>\n",
			gutter, y+2, f1(w1), esc(formatInt(int64(r.SubmittedInputTokens))+" input tokens submitted by attempts"))
		if w2 > 0 {
			fmt.Fprintf(b, "<rect class=\"repair\" x=\"%s\" y=\"%d\" width=\"%s\" height=\"16\" fill=\"#1b7c83\"><title>%s</title></rect>\n",
				f1(gutter+w1), y+2, f1(w2), esc(formatInt(int64(r.RepairInputTokens))+" input tokens submitted by repair calls"))
		}
		label := formatInt(int64(r.SubmittedInputTokens)) + " by attempts"
		if r.RepairInputTokens > 0 {
			label += " + " + formatInt(int64(r.RepairInputTokens)) + " by repair calls = " + formatInt(int64(r.Exposure()))
		}
		label += "; " + formatInt(int64(r.OutputTokens)) + " output"
		fmt.Fprintf(b, "<text class=\"small\" x=\"%s\" y=\"%d\">%s</text>\n", f1(gutter+w1+w2+8), y+14, esc(label))
	}
	b.WriteString("</svg>\n")
}
