package main

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// helpWidth is the widest line `--help` prints: 100 columns.
const helpWidth = 100

// fitHelp makes every command's --help fit helpWidth columns: a longer
// line (a flag's usage and default, a command's summary, a paragraph) is
// wrapped, its continuation lines indented to where its text began.
func fitHelp(root *cobra.Command) {
	def := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		out := c.OutOrStdout()
		var buf bytes.Buffer
		c.SetOut(&buf)
		def(c, args)
		c.SetOut(out)
		io.WriteString(out, wrapLines(buf.String(), helpWidth))
	})
}

// wrapLines wraps every line of s wider than width runes at spaces.
func wrapLines(s string, width int) string {
	var b strings.Builder
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(wrapLine(line, width))
	}
	return b.String()
}

// wrapLine wraps one line. Its continuation indent is where the text of a
// two-column line (a flag or a command, then two or more spaces, then its
// words) begins, or else the line's own indent.
func wrapLine(line string, width int) string {
	if utf8.RuneCountInString(line) <= width {
		return line
	}
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if gap := strings.Index(line[indent:], "  "); gap > 0 {
		text := indent + gap
		for text < len(line) && line[text] == ' ' {
			text++
		}
		if text < width/2 {
			indent = text
		}
	}
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	col := 0
	for i, word := range words(line[indent:], width-indent) {
		n := utf8.RuneCountInString(word)
		switch {
		case i == 0:
			b.WriteString(line[:indent])
			col = indent
		case col+1+n > width && col > indent:
			b.WriteString("\n" + pad)
			col = indent
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
	}
	return b.String()
}

// words splits text at spaces, and a word longer than max after its
// commas (a list such as a default value), a comma ending each piece.
func words(text string, max int) []string {
	var out []string
	for _, w := range strings.Split(text, " ") {
		for utf8.RuneCountInString(w) > max {
			cut := strings.LastIndex(w[:min(len(w), max)], ",")
			if cut <= 0 {
				break
			}
			out = append(out, w[:cut+1])
			w = w[cut+1:]
		}
		out = append(out, w)
	}
	return out
}
