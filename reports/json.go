package reports

import (
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
	out := document{Seed: rep.Seed, Shard: shard, Results: make([]ledger.Result, len(rep.Results))}
	if rep.Stopped != nil {
		out.Complete, out.Stopped = new(bool), rep.Stopped
	}
	for i, r := range rep.Results {
		if r.AttemptsLog == nil {
			r.AttemptsLog = []ledger.Attempt{}
		}
		if r.RepairLog == nil {
			r.RepairLog = []ledger.Attempt{}
		}
		out.Results[i] = r
	}
	if shard == nil {
		out.Verdicts, _ = Verdicts(rep) // two results for one cell: no ranking, the record still written
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
