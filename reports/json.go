package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/faultbench/faultbench/ledger"
)

// JSON writes rep as the machine contract of SPEC §7: one object
// {"seed": N, "results": [...]}, indented two spaces and ending in a newline.
// Equal reports give byte-identical output. Empty lists are written as []
// (results, attempts_log, repair_log), never null, so consumers need not
// special-case them. rep is not modified.
func JSON(w io.Writer, rep ledger.Report) error {
	out := ledger.Report{Seed: rep.Seed, Results: make([]ledger.Result, len(rep.Results))}
	for i, r := range rep.Results {
		if r.AttemptsLog == nil {
			r.AttemptsLog = []ledger.Attempt{}
		}
		if r.RepairLog == nil {
			r.RepairLog = []ledger.Attempt{}
		}
		out.Results[i] = r
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // scenario names and reasons read as written
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("reports: encoding JSON: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing JSON: %w", err)
	}
	return nil
}
