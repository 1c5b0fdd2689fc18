package reports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/ledger"
)

// csvHeader names the CSV columns: the figures of the JSON contract, plain
// numbers (wait in milliseconds), exposure added, then the result's broken
// budgets, then a workload's figures (csvWorkload), then the holds and a
// workload's time queued and in flight, then the cost (csvCost), each
// added after the columns that came before it so that none moved.
var csvHeader = []string{"scenario", "strategy", "outcome", "reason", "attempts", "repair_calls", "wait_ms",
	"submitted_input_tokens", "repair_input_tokens", "exposure", "output_tokens", "fallbacks", "compactions",
	"escalations", "adjustments", "steps", "loop_warnings", "loop_detector", "broken_budgets",
	"turns", "succeeded", "failed", "makespan_ms", "p50_ms", "p95_ms", "p99_ms", "status_429", "status_529",
	"wasted_input_tokens", "hold_ms", "queued_ms", "in_flight_ms",
	"cache_read_tokens", "cache_write_tokens", "billed_input_tokens", "billed_usd", "cache_hit_ratio"}

// csvWorkload is the cells of a workload's figures, as the JSON's workload
// object names them (its attempts are the attempts column); empty for a
// result without a workload.
func csvWorkload(w *ledger.Workload) []string {
	if w == nil {
		return make([]string, 10)
	}
	itoa, ms := strconv.Itoa, func(v int64) string { return strconv.FormatInt(v, 10) }
	return []string{itoa(w.Turns), itoa(w.Succeeded), itoa(w.Failed), ms(w.MakespanMS), ms(w.P50MS), ms(w.P95MS),
		ms(w.P99MS), itoa(w.Status429), itoa(w.Status529), itoa(w.WastedInputTokens)}
}

// csvCost is the cells of a result's cost, as the JSON's cost object
// names them (docs/cost.md): dollars and the ratio as plain decimals
// (0.218115, 0.8727), empty for a result without a cost (its models have
// no price and the prompt cache was never used).
func csvCost(c *ledger.Cost) []string {
	if c == nil {
		return make([]string, 5)
	}
	itoa, dec := strconv.Itoa, func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return []string{itoa(c.CacheReadTokens), itoa(c.CacheWriteTokens), itoa(c.BilledInputTokens), dec(c.BilledUSD), dec(c.CacheHitRatio)}
}

// csvQueued and csvInFlight are a workload's time queued and in flight,
// empty without one.
func csvQueued(w *ledger.Workload) string {
	if w == nil {
		return ""
	}
	return strconv.FormatInt(w.QueuedMS, 10)
}

func csvInFlight(w *ledger.Workload) string {
	if w == nil {
		return ""
	}
	return strconv.FormatInt(w.InFlightMS, 10)
}

// CSV writes rep as one header line and one line per result, in the
// report's order, for a spreadsheet: the columns of csvHeader, numbers
// without separators, in broken_budgets the result's broken budgets
// joined by "; " ("attempts is 6, expected <= 4"), empty when none, and
// the workload columns empty outside a workload, the cost columns empty
// without a cost. Lines end
// in \n; fields are quoted only when they need it (RFC 4180). A text field
// that a spreadsheet would take for a formula gets a leading ' (see
// csvText); numbers are our own and never do.
func CSV(w io.Writer, rep ledger.Report, opts Options) error {
	broken := violationsByCell(opts.Violations)
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	_ = cw.Write(csvHeader) // writes to a bytes.Buffer fail only by panic
	for _, r := range rep.Results {
		var vs []string
		for _, v := range broken[key{r.Scenario, r.Strategy}] {
			vs = append(vs, v.String())
		}
		itoa := strconv.Itoa
		_ = cw.Write(append([]string{
			csvText(r.Scenario), csvText(r.Strategy), csvText(string(r.Outcome)), csvText(r.Reason),
			itoa(r.Attempts), itoa(r.RepairCalls), strconv.FormatInt(r.WaitMS, 10),
			itoa(r.SubmittedInputTokens), itoa(r.RepairInputTokens), itoa(r.Exposure()), itoa(r.OutputTokens),
			itoa(r.Fallbacks), itoa(r.Compactions), itoa(r.Escalations), itoa(r.Adjustments), itoa(r.Steps),
			itoa(r.LoopWarnings), csvText(r.LoopDetector), csvText(strings.Join(vs, "; ")),
		}, append(append(csvWorkload(r.Workload), strconv.FormatInt(r.HoldMS, 10), csvQueued(r.Workload), csvInFlight(r.Workload)),
			csvCost(r.Cost)...)...))
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("reports: encoding CSV: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing CSV: %w", err)
	}
	return nil
}

// csvText guards a text field against formula injection as OWASP's CSV
// injection advice recommends: a field starting with =, +, -, @, a tab or a
// carriage return — which Excel, LibreOffice and Sheets would evaluate,
// "=cmd|' /C calc'!A0" among them — gets a leading single quote, so it is
// shown as text. (No name or figure of ours starts so; a scenario's or a
// strategy's file might.)
func csvText(s string) string {
	s = texttable.Visible(s) // an escape, a bell or an override as a visible escape
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
