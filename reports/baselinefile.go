package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/faultbench/faultbench/ledger"
)

// baselineResult is a result as a baseline file keeps it: the figures
// [Compare] reads, without the attempt logs.
type baselineResult struct {
	Scenario             string           `json:"scenario"`
	Strategy             string           `json:"strategy"`
	Outcome              ledger.Outcome   `json:"outcome"`
	Attempts             int              `json:"attempts"`
	RepairCalls          int              `json:"repair_calls"`
	WaitMS               int64            `json:"wait_ms"`
	HoldMS               int64            `json:"hold_ms"`
	SubmittedInputTokens int              `json:"submitted_input_tokens"`
	RepairInputTokens    int              `json:"repair_input_tokens"`
	Workload             *ledger.Workload `json:"workload,omitempty"`
}

// Baseline writes rep as a file to commit and compare later runs with
// (--baseline): a JSON report {"seed": N, "results": [...]} that [ReadJSON]
// reads, whose results hold only the figures [Compare] compares — outcome,
// attempts, repair calls, wait, holds, submitted and repair input tokens,
// a fleet's workload object — one result a line, so that the file stays
// small (no attempt logs) and a change to it reads as a diff of the results
// that moved. Equal reports give byte-identical output.
func Baseline(w io.Writer, rep ledger.Report, _ Options) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "{\"seed\": %d, ", rep.Seed)
	if rep.Stopped != nil { // a stopped run's baseline says so, as its JSON does
		stop, err := marshalCompact(rep.Stopped)
		if err != nil {
			return fmt.Errorf("reports: encoding baseline: %w", err)
		}
		fmt.Fprintf(&buf, "\"complete\": false, \"stopped\": %s, ", bytes.TrimSpace(stop))
	}
	buf.WriteString("\"results\": [")
	for i, r := range rep.Results {
		line, err := marshalCompact(baselineResult{Scenario: r.Scenario, Strategy: r.Strategy, Outcome: r.Outcome,
			Attempts: r.Attempts, RepairCalls: r.RepairCalls, WaitMS: r.WaitMS, HoldMS: r.HoldMS,
			SubmittedInputTokens: r.SubmittedInputTokens, RepairInputTokens: r.RepairInputTokens, Workload: r.Workload})
		if err != nil {
			return fmt.Errorf("reports: encoding baseline: %w", err)
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n")
		buf.Write(line)
	}
	buf.WriteString("\n]}\n")
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing baseline: %w", err)
	}
	return nil
}

// marshalCompact encodes v on one line, scenario names and reasons as
// written (no HTML escaping).
func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
