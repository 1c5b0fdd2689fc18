package reports

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/faultbench/faultbench/ledger"
)

// ErrUnknownFormat is wrapped by [Write] when asked for a format this build
// does not render. Test for it with errors.Is.
var ErrUnknownFormat = errors.New("reports: unknown format")

// The formats this build renders, by the name --format takes.
const (
	FormatTable    = "table"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
	FormatCSV      = "csv"
	FormatJUnit    = "junit"
	FormatHTML     = "html"
	// FormatBaseline is a baseline file to commit: the compared figures
	// without the attempt logs ([Baseline]).
	FormatBaseline = "baseline"
)

// writers maps a format name to its renderer; the order of [Formats] is the
// order here.
var writers = []struct {
	name  string
	write func(io.Writer, ledger.Report, Options) error
}{
	{FormatTable, bannered(FormatTable, Table)},
	{FormatMarkdown, bannered(FormatMarkdown, Markdown)},
	{FormatJSON, func(w io.Writer, rep ledger.Report, opts Options) error {
		if opts.Shard != nil {
			return ShardJSON(w, rep, *opts.Shard)
		}
		return JSON(w, rep)
	}},
	{FormatCSV, bannered(FormatCSV, CSV)},
	{FormatJUnit, JUnit},
	{FormatHTML, HTML},
	{FormatBaseline, Baseline},
}

// Formats names the output formats this build supports, in the order the
// help text lists them. The slice is the caller's to keep.
func Formats() []string {
	names := make([]string, len(writers))
	for i, f := range writers {
		names[i] = f.name
	}
	return names
}

// Write renders rep to w in the named format (table, markdown, json, csv,
// junit, html or baseline; see [Formats]). Names are matched exactly. An unknown name
// writes nothing and returns an error wrapping [ErrUnknownFormat]. Options
// are ignored by formats that have no use for them (JSON takes only the
// shard).
func Write(w io.Writer, format string, rep ledger.Report, opts Options) error {
	for _, f := range writers {
		if f.name == format {
			return f.write(w, rep, opts)
		}
	}
	return fmt.Errorf("%w %q (supported: %s)", ErrUnknownFormat, format, strings.Join(Formats(), ", "))
}
