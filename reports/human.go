package reports

import (
	"fmt"
	"strconv"
	"strings"
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
		// -(ms+1)+1 is |ms| without overflowing at math.MinInt64.
		return "-" + formatMillis(uint64(-(ms+1))+1)
	}
	return formatMillis(uint64(ms))
}

// formatMillis is formatWait of a magnitude, in integers: no conversion to
// a time.Duration, which overflows past 292 years of milliseconds.
func formatMillis(ms uint64) string {
	switch {
	case ms == 0:
		return "0s"
	case ms < 1000:
		return strconv.FormatUint(ms, 10) + "ms"
	}
	if tenths := (ms + 50) / 100; tenths < 600 {
		if tenths%10 == 0 {
			return strconv.FormatUint(tenths/10, 10) + "s"
		}
		return strconv.FormatUint(tenths/10, 10) + "." + strconv.FormatUint(tenths%10, 10) + "s"
	}
	secs := ms/1000 + (ms%1000+500)/1000
	h, m, s := secs/3600, secs%3600/60, secs%60
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
