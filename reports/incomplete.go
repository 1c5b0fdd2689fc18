package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/faultbench/faultbench/internal/texttable"

	"github.com/faultbench/faultbench/ledger"
)

// incompleteLine is the banner of a report whose run stopped early, the
// same words in every format: what stopped it, how much finished, and
// that the figures are those runs' alone.
// The cause comes from the file a merge read: it is shown on one line,
// control characters made visible, at most maxCause runes.
func incompleteLine(s *ledger.Stop) string {
	cause := []rune(texttable.Plain(strings.Join(strings.Fields(s.Cause), " ")))
	if len(cause) > maxCause {
		cause = append(cause[:maxCause], '…')
	}
	return fmt.Sprintf("INCOMPLETE REPORT: the run was stopped (%s) with %d of %d runs finished; every figure here is of those runs only",
		string(cause), s.Finished, s.Runs)
}

// maxCause is the most of a stop's cause a banner shows.
const maxCause = 200

// bannered writes a stopped report's banner before what write renders:
// a line of text, a Markdown quote, a CSV comment row. A complete
// report is written as write writes it.
func bannered(format string, write func(io.Writer, ledger.Report, Options) error) func(io.Writer, ledger.Report, Options) error {
	return func(w io.Writer, rep ledger.Report, opts Options) error {
		if rep.Stopped != nil {
			line := incompleteLine(rep.Stopped)
			var err error
			switch format {
			case FormatMarkdown:
				_, err = fmt.Fprintf(w, "> **%s**\n\n", markdownText(line))
			case FormatCSV:
				_, err = fmt.Fprintf(w, "# %s\n", line)
			default:
				_, err = fmt.Fprintf(w, "%s\n\n", line)
			}
			if err != nil {
				return fmt.Errorf("reports: writing %s: %w", format, err)
			}
		}
		return write(w, rep, opts)
	}
}
