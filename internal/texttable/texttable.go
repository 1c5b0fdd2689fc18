package texttable

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// MaxWidth is the widest line, in runes, a table is drawn to when the
// caller sets no width: what a terminal or a CI log shows without
// wrapping.
const MaxWidth = 120

// Table is one table to draw.
type Table struct {
	Header []string
	Rows   [][]string
	// Keys is how many leading columns identify a row (left-aligned and
	// repeated in every part when the table is cut); 0 means 1.
	Keys int
	// Left is how many leading columns are left-aligned; the others are
	// right-aligned (numbers). Below Keys it counts as Keys.
	Left int
	// Width is the widest line allowed, in runes; 0 means [MaxWidth].
	Width int
}

// Render draws t into buf as one or more ASCII tables (blank lines between
// the parts), each at most t.Width wide if it can be: first as it is; if too
// wide, with headers broken after each hyphen; if still too wide, with
// headers whole, cut into parts. A single column wider than the width on
// its own is drawn anyway.
func Render(buf *bytes.Buffer, t Table) error {
	keys := max(t.Keys, 1)
	width := t.Width
	if width <= 0 {
		width = MaxWidth
	}
	all := make([]int, len(t.Header))
	for i := range all {
		all[i] = i
	}
	out, err := draw(t, all, false)
	if err != nil || Width(out) <= width || len(t.Header) <= keys {
		buf.Write(out)
		return err
	}
	if out, err = draw(t, all, true); err != nil || Width(out) <= width {
		buf.Write(out)
		return err
	}
	// Cut: greedy, as many columns as fit in each part.
	var parts [][]byte
	cols := all[:keys:keys]
	var last []byte
	for c := keys; c < len(t.Header); c++ {
		try := append(cols[:len(cols):len(cols)], c)
		out, err := draw(t, try, false)
		if err != nil {
			return err
		}
		if Width(out) > width && len(cols) > keys {
			parts = append(parts, last)
			cols = append(all[:keys:keys], c)
			if last, err = draw(t, cols, false); err != nil {
				return err
			}
			continue
		}
		cols, last = try, out
	}
	parts = append(parts, last)
	buf.Write(bytes.Join(parts, []byte("\n")))
	return nil
}

// Width is the widest line of text, in runes.
func Width(text []byte) int {
	w := 0
	for _, line := range bytes.Split(text, []byte("\n")) {
		w = max(w, utf8.RuneCount(line))
	}
	return w
}

// draw renders the columns cols of t.
func draw(t Table, cols []int, breakHeaders bool) ([]byte, error) {
	keys := max(t.Keys, 1)
	left := max(t.Left, keys)
	header := make([]string, len(cols))
	align := make(tw.Alignment, len(cols))
	for i, c := range cols {
		header[i] = t.Header[c]
		if breakHeaders && c >= keys {
			header[i] = strings.ReplaceAll(header[i], "-", "-\n")
		}
		align[i] = tw.AlignRight
		if c < left {
			align[i] = tw.AlignLeft
		}
	}
	rows := make([][]string, len(t.Rows))
	for r, row := range t.Rows {
		rows[r] = make([]string, len(cols))
		for i, c := range cols {
			if c < len(row) {
				rows[r][i] = row[c]
			}
		}
	}
	var buf bytes.Buffer
	tbl := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft, PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft, PerColumn: align}),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	tbl.Header(header)
	if err := tbl.Bulk(rows); err != nil {
		return nil, fmt.Errorf("texttable: building table: %w", err)
	}
	if err := tbl.Render(); err != nil {
		return nil, fmt.Errorf("texttable: rendering table: %w", err)
	}
	return buf.Bytes(), nil
}
