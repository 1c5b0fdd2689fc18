package reports

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// noValue fills a cell that has no value: a ratio over zero, a strategy that
// did not run a scenario.
//
// Cells hold ASCII only. tablewriter measures East Asian "ambiguous" runes
// such as "—" and "×" as two columns when the locale (LANG, LC_ALL) is CJK,
// so with them the padding, and so the bytes, would depend on the machine;
// and its switch for that (WithEastAsian) sets a process-wide global.
const noValue = "-"

// formatInt writes n with comma thousands separators: 104000 → "104,000".
func formatInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return sign + s
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(s) % 3
	if head > 0 {
		b.WriteString(s[:head])
	}
	for i := head; i < len(s); i += 3 {
		if b.Len() > len(sign) {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// formatWait writes a wait given in milliseconds for a person to read:
// "0s", "250ms", "1.5s", "31s", "2m4s", "1h0m5s". Under a second it is exact;
// under a minute it is rounded to a tenth of a second; from a minute on, to
// the second, with trailing zero units dropped ("2m", "1h"). The exact
// figure is in the JSON.
func formatWait(ms int64) string {
	if ms < 0 {
		return "-" + formatWait(-ms)
	}
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d == 0:
		return "0s"
	case d < time.Second:
		return strconv.FormatInt(ms, 10) + "ms"
	}
	if tenths := d.Round(100 * time.Millisecond); tenths < time.Minute {
		return strconv.FormatFloat(tenths.Seconds(), 'f', -1, 64) + "s"
	}
	d = d.Round(time.Second)
	h, m, s := int64(d/time.Hour), int64(d%time.Hour/time.Minute), int64(d%time.Minute/time.Second)
	var b strings.Builder
	if h > 0 {
		fmt.Fprintf(&b, "%dh", h)
	}
	if m > 0 || (h > 0 && s > 0) {
		fmt.Fprintf(&b, "%dm", m)
	}
	if s > 0 {
		fmt.Fprintf(&b, "%ds", s)
	}
	return b.String()
}

// wrapText breaks text into lines of at most width characters (runes) at
// spaces; a word longer than width gets a line of its own. Runs of white
// space, newlines included, collapse to one space.
func wrapText(text string, width int) []string {
	var lines []string
	var line strings.Builder
	n := 0 // runes in line
	for _, word := range strings.Fields(text) {
		wn := utf8.RuneCountInString(word)
		if n > 0 && n+1+wn > width {
			lines = append(lines, line.String())
			line.Reset()
			n = 0
		}
		if n > 0 {
			line.WriteByte(' ')
			n++
		}
		line.WriteString(word)
		n += wn
	}
	if n > 0 {
		lines = append(lines, line.String())
	}
	return lines
}
