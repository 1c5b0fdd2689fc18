package texttable

import (
	"fmt"
	"strings"
	"unicode"
)

// Plain makes s safe to print on a terminal: every control character (C0,
// DEL, C1 — the escape that starts a terminal sequence among them) and every
// bidirectional-text override is written as a visible Go escape ("\x1b",
// "\u202e"), so that text from a scenario or strategy file can neither
// retitle, clear or recolor the terminal nor reorder what is shown. A
// newline or tab becomes "\n" or "\t" too: a table cell stays one line.
func Plain(s string) string {
	if strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8RuneError:
			b.WriteString(`\ufffd`)
		case r < 0x100 && unsafeRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Visible is Plain for text that may run over lines (an HTML paragraph, a
// JUnit message, a CSV field): newlines and tabs are kept as they are, and
// every other control character and bidirectional override is written as
// a visible escape.
func Visible(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && unsafeRune(r) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		for i, part := range strings.Split(body, "\t") {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(Plain(part))
		}
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

const utf8RuneError = '\uFFFD'

// unsafeRune reports a rune that a terminal acts on or that reorders text:
// control characters, bidirectional controls, and the replacement rune of an
// invalid byte.
func unsafeRune(r rune) bool {
	if unicode.IsControl(r) || r == utf8RuneError {
		return true
	}
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
