package texttable

import (
	"bytes"
	"strings"
	"testing"
)

func render(t *testing.T, tbl Table) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, tbl); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func wide(n int) Table {
	tbl := Table{Header: []string{"metric"}, Rows: [][]string{{"attempts"}, {"stopped by"}}}
	for i := 0; i < n; i++ {
		tbl.Header = append(tbl.Header, "strategy-"+strings.Repeat("x", i%4+3))
		tbl.Rows[0] = append(tbl.Rows[0], "1,050,000")
		tbl.Rows[1] = append(tbl.Rows[1], "no_progress")
	}
	return tbl
}

func TestATableThatFitsIsDrawnWhole(t *testing.T) {
	out := render(t, wide(2))
	if strings.Count(out, "| metric") != 1 || strings.Contains(out, "strategy-\n") {
		t.Fatalf("cut or broken without need:\n%s", out)
	}
}

func TestATooWideTableBreaksHeadersAtHyphensFirst(t *testing.T) {
	out := render(t, Table{Header: wide(7).Header, Rows: wide(7).Rows, Width: 115})
	if Width([]byte(out)) > 115 {
		t.Fatalf("wider than 115:\n%s", out)
	}
	if strings.Count(out, "| metric") != 1 || !strings.Contains(out, " strategy- |") {
		t.Fatalf("want one table with headers broken at hyphens:\n%s", out)
	}
}

func TestATableTooWideEvenSoIsCutRepeatingTheKeyColumn(t *testing.T) {
	tbl := wide(20)
	out := render(t, tbl)
	if w := Width([]byte(out)); w > MaxWidth {
		t.Fatalf("line of %d runes:\n%s", w, out)
	}
	parts := strings.Count(out, "| metric")
	if parts < 2 {
		t.Fatalf("not cut:\n%s", out)
	}
	if got := strings.Count(out, "| stopped by"); got != parts {
		t.Errorf("key column in %d of %d parts", got, parts)
	}
	if got := strings.Count(out, "no_progress"); got != 20 {
		t.Errorf("%d of 20 cells drawn", got)
	}
}

func TestPlainMakesTerminalSequencesVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain — text ×2":         "plain — text ×2",
		"\x1b]0;pwned\x07title":   `\x1b]0;pwned\x07title`,
		"\x1b[2J\x1b[Hclear":      `\x1b[2J\x1b[Hclear`,
		"two\nlines\tand\rreturn": `two\nlines\tand\x0dreturn`,
		"c1 \u009b31m":            `c1 \x9b31m`,
		"bidi \u202eevil\u2066":   `bidi \u202eevil\u2066`,
		"bad utf-8 \xff":          `bad utf-8 \ufffd`,
		"del \x7f":                `del \x7f`,
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}
