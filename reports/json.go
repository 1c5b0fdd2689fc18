package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/faultbench/faultbench/ledger"
)

// document is the JSON object: a [ledger.Report] with, for one shard of a
// run, where its results sit in the whole grid. Unsharded, it is exactly
// {"seed": N, "results": [...]}.
type document struct {
	Seed uint64 `json:"seed"`
	// Complete and Stopped are written only for a run that stopped early:
	// "complete": false and what stopped it.
	Complete *bool             `json:"complete,omitempty"`
	Stopped  *ledger.Stop      `json:"stopped,omitempty"`
	Shard    *Shard            `json:"shard,omitempty"`
	Results  []ledger.Result   `json:"results"`
	Verdicts []ScenarioVerdict `json:"verdicts,omitempty"`
}

// JSON writes rep as the machine contract of docs/reports.md: one object
// {"seed": N, "results": [...], "verdicts": [...]}, indented two spaces and
// ending in a newline; "verdicts" ranks each scenario's strategies
// ([Verdicts]) and is left out when there are no results or two results
// share a scenario and strategy.
// Equal reports give byte-identical output. Empty lists are written as []
// (results, attempts_log, repair_log), never null, so consumers need not
// special-case them. rep is not modified.
func JSON(w io.Writer, rep ledger.Report) error { return writeJSON(w, rep, nil) }

// ShardJSON writes one shard's report as [JSON] does, with a "shard" object
// between seed and results that says where its results sit in the whole
// grid; [Merge] reads it to put the shards back together. A shard has no
// "verdicts": it may hold only some of a scenario's strategies.
func ShardJSON(w io.Writer, rep ledger.Report, shard Shard) error { return writeJSON(w, rep, &shard) }

func writeJSON(w io.Writer, rep ledger.Report, shard *Shard) error {
	out := document{Seed: rep.Seed, Shard: shard, Results: []ledger.Result{}}
	if rep.Stopped != nil {
		out.Complete, out.Stopped = new(bool), rep.Stopped
	}
	if shard == nil {
		out.Verdicts, _ = Verdicts(rep) // two results for one cell: no ranking, the record still written
	}
	// The document is encoded with an empty result list, and the results
	// are written into it one at a time, each indented as it stands in the
	// whole: a report's memory is one result's encoding, not three copies
	// of the whole (the encoder's, its indented copy, a buffer of it),
	// which were most of the peak of a run of 1,700 scenarios. The bytes
	// are those of encoding the whole document at once (json_test.go).
	frame, err := indented(out)
	if err != nil {
		return err
	}
	at := bytes.Index(frame, emptyResults)
	if at < 0 {
		return fmt.Errorf("reports: encoding JSON: no results list in %d bytes", len(frame))
	}
	at += len(emptyResults) - 1 // before the ]
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(frame[:at])
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(resultIndent, "  ")
	enc.SetEscapeHTML(false)
	for i, r := range rep.Results {
		if r.AttemptsLog == nil {
			r.AttemptsLog = []ledger.Attempt{}
		}
		if r.RepairLog == nil {
			r.RepairLog = []ledger.Attempt{}
		}
		buf.Reset()
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("reports: encoding JSON: %w", err)
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n" + resultIndent)
		bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	if len(rep.Results) > 0 {
		bw.WriteString("\n  ")
	}
	bw.Write(frame[at:])
	if err := bw.Flush(); err != nil { // a bufio.Writer keeps its first error
		return fmt.Errorf("reports: writing JSON: %w", err)
	}
	return nil
}

// emptyResults is where the document's result list sits, at the top
// level: no string of the document holds a raw line break.
var emptyResults = []byte("\n  \"results\": []")

// resultIndent is the indentation of a result in the document's list.
const resultIndent = "    "

// indented is v encoded as the reports encode it: indented two spaces,
// HTML left as written, ending in a newline.
func indented(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // scenario names and reasons read as written
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("reports: encoding JSON: %w", err)
	}
	return buf.Bytes(), nil
}
