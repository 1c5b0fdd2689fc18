package reports

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/ledger"
)

// DescriptionWidth is the column at which scenario descriptions wrap.
const DescriptionWidth = 78

// submittedNote ends every table: the one thing a reader must not assume.
// Kept to one line of under 80 columns.
const submittedNote = "Note: submitted tokens are what the server counted as sent, not what is billed."

// Table writes rep as text for people, every line at most
// [texttable.MaxWidth] runes: first the headline (the comparison, then the
// budget status); then the summary of the single turns and, apart, that
// of the fleets (see the package documentation); then, unless
// opts.SummaryOnly, a grid of scenarios × strategies with each run's
// outcome and attempts, and the scenarios in detail: with opts.Details
// every scenario's cost table, with opts.Scenarios those named, and by
// default a short entry — its name and verdict — for each
// scenario where the strategies differ (see [Options].Details); then,
// when there are any, the broken budgets and the comparison with a
// baseline; then a note that submitted tokens are not billed tokens.
//
// A cost table has one row per metric and one column per strategy (rows
// that are zero for every strategy left out unless opts.AllRows; a table
// too wide is cut into parts), the give-up reasons the table's reason row
// points to, and the verdict line (see [TurnRule], [FleetRule]). Borders
// are plain ASCII, headers are kept as written, numbers are right-aligned
// with thousands separators, and text from the scenario and strategy files
// is made safe for a terminal ([texttable.Plain]).
//
// Nothing is written unless the whole report renders. Two results for the
// same scenario and strategy are an error.
func Table(w io.Writer, rep ledger.Report, opts Options) error {
	g, err := group(rep.Results, opts.Strategies)
	if err != nil {
		return err
	}
	exp := expectations(opts.Expectations)
	c := compare(g, opts.Reference)
	c.width = opts.width()

	var buf bytes.Buffer
	if len(rep.Results) == 0 {
		buf.WriteString("No results.\n\n")
	} else {
		for _, line := range c.headline(opts) {
			writeWrapped(&buf, texttable.Plain(line), c.width-2)
		}
		buf.WriteByte('\n')
		if !opts.SummaryOnly && !opts.Details && len(opts.Scenarios) == 0 {
			writeDifferences(&buf, c)
		}
		if err := writeSummary(&buf, c); err != nil {
			return err
		}
	}
	if !opts.SummaryOnly && len(rep.Results) > 0 {
		if err := writeDetails(&buf, c, opts, exp); err != nil {
			return err
		}
	}
	if len(opts.Violations) > 0 {
		buf.WriteString("== broken budgets ==\n\n")
		for _, v := range opts.Violations {
			fmt.Fprintf(&buf, "%s on %s: %s\n", texttable.Plain(v.Strategy), texttable.Plain(v.Scenario), texttable.Plain(v.String()))
		}
		buf.WriteByte('\n')
	}
	if opts.Baseline != nil {
		buf.WriteString("== compared with baseline ==\n\n")
		if err := writeComparison(&buf, *opts.Baseline); err != nil {
			return err
		}
		buf.WriteByte('\n')
	}
	buf.WriteString(submittedNote + "\n")

	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing table: %w", err)
	}
	return nil
}

// writeWrapped writes text wrapped at width, each line after the first
// indented two spaces.
func writeWrapped(buf *bytes.Buffer, text string, width int) {
	for i, line := range wrapText(text, width) {
		if i > 0 {
			line = "  " + line
		}
		buf.WriteString(line + "\n")
	}
}

// writeSummary writes the summary of the single turns and that of the
// fleets, each with its notes, those that ran.
func writeSummary(buf *bytes.Buffer, c comparison) error {
	if rows := c.turnRows(); len(rows) > 0 {
		buf.WriteString("== summary: single turns ==\n\n")
		header := c.turnHeader()
		if hasRegret(c.g) {
			header = append(header, regretHeader...)
		}
		if err := renderFit(buf, splitHeader(header), rows, c.width); err != nil {
			return err
		}
		buf.WriteString(wrapLines(c.turnNote(), c.width))
		buf.WriteByte('\n')
	}
	if rows := c.fleetRows(); len(rows) > 0 {
		buf.WriteString("== summary: fleets ==\n\n")
		if err := renderFit(buf, splitHeader(c.fleetHeader()), rows, c.width); err != nil {
			return err
		}
		buf.WriteString(wrapLines(fleetSummaryNote, c.width))
		buf.WriteByte('\n')
	}
	return nil
}

// renderFit draws a summary table within width by leaving out its last
// columns, as many as it must (never the first two), rather than cut it
// into parts; a line under it names the columns left out.
func renderFit(buf *bytes.Buffer, header []string, rows [][]string, width int) error {
	keep := len(header)
	for {
		var out bytes.Buffer
		h := header[:keep]
		r := make([][]string, len(rows))
		for i, row := range rows {
			r[i] = row[:min(keep, len(row))]
		}
		if err := render(&out, h, r, 1<<20); err != nil {
			return err
		}
		if texttable.Width(out.Bytes()) <= width || keep <= 2 {
			buf.Write(out.Bytes())
			if keep < len(header) {
				var names []string
				for _, name := range header[keep:] {
					names = append(names, strings.ReplaceAll(name, "\n", " "))
				}
				buf.WriteString(wrapLines(fmt.Sprintf("Left out to fit %d columns (COLUMNS): %s.", width, strings.Join(names, ", ")), width))
			}
			return nil
		}
		keep--
	}
}

// splitHeader breaks each header at its spaces, one word a line, which
// keeps a summary within 120 columns.
func splitHeader(header []string) []string {
	out := make([]string, len(header))
	for i, h := range header {
		out[i] = strings.ReplaceAll(h, " ", "\n")
	}
	return out
}

// wrapLines wraps a note two columns inside the table's width, a newline
// after each line.
func wrapLines(s string, width int) string {
	return strings.Join(wrapText(texttable.Plain(s), width-2), "\n") + "\n"
}

// writeDetails writes the grids and then the scenarios in detail, as
// [Table] says.
func writeDetails(buf *bytes.Buffer, c comparison, opts Options, exp map[key]Expectation) error {
	for _, fleet := range []bool{false, true} {
		differing := !opts.Details && len(opts.Scenarios) == 0
		header, rows := c.gridRows(fleet, differing)
		if len(rows) == 0 {
			continue
		}
		note := turnGridNote
		if fleet {
			buf.WriteString("== grid: fleets ==\n\n")
			note = fleetGridNote
		} else {
			buf.WriteString("== grid: single turns ==\n\n")
		}
		writeGrid(buf, header, rows, c.width)
		switch {
		case differing && fleet:
			note += " Rows: where the strategies differ (--details: all)."
		case differing:
			note += " Rows: where the strategies differ (--details: all and each cost table; --scenario NAME: those)."
		}
		buf.WriteString(wrapLines(note, c.width))
		buf.WriteByte('\n')
	}
	writeCostGrid(buf, c)
	switch {
	case opts.Details:
		for _, sc := range c.g.scenarios {
			if err := writeScenario(buf, c, sc, opts, exp); err != nil {
				return err
			}
			buf.WriteByte('\n')
		}
	case len(opts.Scenarios) > 0:
		for _, sc := range c.g.scenarios {
			if slices.Contains(opts.Scenarios, sc) {
				if err := writeScenario(buf, c, sc, opts, exp); err != nil {
					return err
				}
				buf.WriteByte('\n')
			}
		}
	default:
		// The grids' notes say what --details and --scenario add.
	}
	return nil
}

// writeDifferences writes, for each scenario where the strategies differ
// (see comparison.differs), its short entry (differenceLine) — scenarios
// whose entries read the same share one, at the first one's place — then
// names the scenarios where they agree.
func writeDifferences(buf *bytes.Buffer, c comparison) {
	var same, order []string
	names := map[string][]string{}
	for _, v := range c.verdicts {
		if !c.differs(v) {
			same = append(same, v.Scenario)
			continue
		}
		line := differenceLine(c.g, v)
		if _, seen := names[line]; !seen {
			order = append(order, line)
		}
		names[line] = append(names[line], v.Scenario)
	}
	if len(order) > 0 {
		buf.WriteString("== where the strategies differ ==\n\n")
	}
	for _, line := range order {
		writeWrapped(buf, texttable.Plain(strings.Join(names[line], ", ")+": "+line), c.width-2)
	}
	if len(same) > 0 {
		writeWrapped(buf, texttable.Plain(fmt.Sprintf("Every strategy reached the best outcome at comparable cost (within 2x) on %d %s: %s.",
			len(same), plural(len(same), "scenario", "scenarios"), strings.Join(same, ", "))), c.width-2)
	}
	if len(order) > 0 || len(same) > 0 {
		buf.WriteByte('\n')
	}
}

// grouped is the results arranged for rendering: scenarios and strategies in
// display order, each cell looked up by both names.
type grouped struct {
	scenarios  []string
	strategies []string
	cells      map[cellKey]ledger.Result
}

type cellKey struct{ scenario, strategy string }

func (g grouped) cell(scenario, strategy string) (ledger.Result, bool) {
	r, ok := g.cells[cellKey{scenario, strategy}]
	return r, ok
}

// group orders scenarios by first appearance and strategies by order (then
// first appearance) and indexes the results.
func group(results []ledger.Result, order []string) (grouped, error) {
	g := grouped{cells: make(map[cellKey]ledger.Result, len(results))}
	seenScenario := map[string]bool{}
	present := map[string]bool{}
	var appearance []string
	for _, r := range results {
		k := cellKey{r.Scenario, r.Strategy}
		if _, dup := g.cells[k]; dup {
			return grouped{}, fmt.Errorf("reports: two results for scenario %q, strategy %q", r.Scenario, r.Strategy)
		}
		g.cells[k] = r
		if !seenScenario[r.Scenario] {
			seenScenario[r.Scenario] = true
			g.scenarios = append(g.scenarios, r.Scenario)
		}
		if !present[r.Strategy] {
			present[r.Strategy] = true
			appearance = append(appearance, r.Strategy)
		}
	}
	placed := map[string]bool{}
	place := func(names []string) {
		for _, s := range names {
			if present[s] && !placed[s] {
				placed[s] = true
				g.strategies = append(g.strategies, s)
			}
		}
	}
	place(order) // not append(order, ...): that could write into the caller's slice
	place(appearance)
	return g, nil
}

// metric is one row of a scenario table.
type metric struct {
	name  string
	value func(ledger.Result) string
}

func count(f func(ledger.Result) int) func(ledger.Result) string {
	return func(r ledger.Result) string { return formatInt(int64(f(r))) }
}

// reasonRow names the row that points to the give-up reasons under the
// table.
const reasonRow = "reason"

// metrics are the rows of a scenario table, in order; the reason row
// follows the outcome.
var metrics = []metric{
	{"outcome", func(r ledger.Result) string { return orNoValue(string(r.Outcome)) }},
	{reasonRow, nil}, // filled from reasonNotes
	{"attempts", count(func(r ledger.Result) int { return r.Attempts })},
	{"repair calls", count(func(r ledger.Result) int { return r.RepairCalls })},
	{"wait", func(r ledger.Result) string { return formatWait(r.WaitMS) }},
	{"holds", func(r ledger.Result) string { return formatWait(r.HoldMS) }},
	{"submitted input tokens", count(func(r ledger.Result) int { return r.SubmittedInputTokens })},
	{"repair input tokens", count(func(r ledger.Result) int { return r.RepairInputTokens })},
	{"exposure", count(ledger.Result.Exposure)},
	{"output tokens", count(func(r ledger.Result) int { return r.OutputTokens })},
	{"fallbacks", count(func(r ledger.Result) int { return r.Fallbacks })},
	{"escalations", count(func(r ledger.Result) int { return r.Escalations })},
	{"adjustments", count(func(r ledger.Result) int { return r.Adjustments })},
	{"compactions", count(func(r ledger.Result) int { return r.Compactions })},
}

// agentMetrics are the rows added to the table of a scenario whose turn is
// an agent turn (some run took more than one step or was stopped by a
// loop guard or step cap).
var agentMetrics = []metric{
	{"steps", count(func(r ledger.Result) int { return r.Steps })},
	{"loop warnings", count(func(r ledger.Result) int { return r.LoopWarnings })},
	{"stopped by", func(r ledger.Result) string { return orNoValue(r.LoopDetector) }},
}

// workloadMetrics are the rows added after the reason row to the table of
// a scenario with a workload (some result has a ledger.Workload): how many
// turns ran and succeeded (and how many of the failed turns were
// background ones, which a strategy that sheds load gives up on purpose),
// how long the fleet took on the virtual clock
// (makespan) and a turn at the 50th, 95th and 99th percentile, the 429 and
// 529 answers its attempts got, and the input its failed attempts
// submitted, and the turns' time queued (before they started, every slot
// taken) and in flight (send to answer), summed over them — with the wait
// and holds rows, a turn's time split. The attempts row is the fleet's
// total already.
var workloadMetrics = []metric{
	{"turns", workloadCount(func(w ledger.Workload) int { return w.Turns })},
	{"succeeded turns", workloadCount(func(w ledger.Workload) int { return w.Succeeded })},
	{"failed turns", workloadCount(func(w ledger.Workload) int { return w.Failed })},
	{"of them background", workloadCount(func(w ledger.Workload) int { return w.BackgroundFailed })},
	{"makespan", workloadTime(func(w ledger.Workload) int64 { return w.MakespanMS })},
	{"turn p50", workloadTime(func(w ledger.Workload) int64 { return w.P50MS })},
	{"turn p95", workloadTime(func(w ledger.Workload) int64 { return w.P95MS })},
	{"turn p99", workloadTime(func(w ledger.Workload) int64 { return w.P99MS })},
	{"429 answers", workloadCount(func(w ledger.Workload) int { return w.Status429 })},
	{"529 answers", workloadCount(func(w ledger.Workload) int { return w.Status529 })},
	{"wasted input tokens", workloadCount(func(w ledger.Workload) int { return w.WastedInputTokens })},
	{"turn time queued", workloadTime(func(w ledger.Workload) int64 { return w.QueuedMS })},
	{"turn time in flight", workloadTime(func(w ledger.Workload) int64 { return w.InFlightMS })},
}

// workloadCount and workloadTime show a workload figure, [noValue] for a
// result without a workload.
func workloadCount(f func(ledger.Workload) int) func(ledger.Result) string {
	return func(r ledger.Result) string {
		if r.Workload == nil {
			return noValue
		}
		return formatInt(int64(f(*r.Workload)))
	}
}

func workloadTime(f func(ledger.Workload) int64) func(ledger.Result) string {
	return func(r ledger.Result) string {
		if r.Workload == nil {
			return noValue
		}
		return formatWait(f(*r.Workload))
	}
}

// hasWorkload reports whether any result of the scenario is a fleet's.
func hasWorkload(g grouped, scenario string) bool {
	for _, s := range g.strategies {
		if r, ok := g.cell(scenario, s); ok && r.Workload != nil {
			return true
		}
	}
	return false
}

// agentTurn reports whether a result comes from an agent turn: a turn
// that took more than one step, or was stopped by a loop guard or step
// cap. A fleet's steps are summed over its turns, so it took more than one
// step per turn.
func agentTurn(r ledger.Result) bool {
	turns := 1
	if r.Workload != nil {
		turns = max(r.Workload.Turns, 1)
	}
	return r.Steps > turns || r.LoopDetector != ""
}

func orNoValue(s string) string {
	if s == "" {
		return noValue
	}
	return s
}

// writeScenario writes one scenario's title, description, table, reasons
// and verdict line.
func writeScenario(buf *bytes.Buffer, c comparison, scenario string, opts Options, exp map[key]Expectation) error {
	g := c.g
	fmt.Fprintf(buf, "== %s ==\n", texttable.Plain(scenario))
	description := texttable.Plain(strings.Join(strings.Fields(opts.Descriptions[scenario]), " "))
	for _, line := range wrapText(description, DescriptionWidth) {
		buf.WriteString(line + "\n")
	}
	buf.WriteByte('\n')
	header, rows, notes := scenarioRows(g, scenario, opts.AllRows, exp)
	if err := render(buf, header, rows, c.width); err != nil {
		return err
	}
	for _, n := range notes {
		for i, line := range wrapText(texttable.Plain(n), c.width-4) {
			if i > 0 {
				line = "    " + line
			}
			buf.WriteString(line + "\n")
		}
	}
	if v, ok := verdictOf(g, scenario); ok {
		writeWrapped(buf, texttable.Plain(verdictLine(g, v)), c.width-2)
	}
	return nil
}

// scenarioRows are one scenario's table: a row per metric, a column per
// strategy, [noValue] where a strategy did not run it; rows whose every
// cell is zero or [noValue] left out unless all; after the reason row the
// expected outcomes (expectedRow), when the scenario names any; and the
// notes the reason row points to.
func scenarioRows(g grouped, scenario string, all bool, exp map[key]Expectation) (header []string, rows [][]string, notes []string) {
	header = append([]string{"metric"}, g.strategies...)
	shown := metrics
	if hasWorkload(g, scenario) { // after the outcome and reason rows
		shown = append(append(slices.Clone(metrics[:2]), workloadMetrics...), metrics[2:]...)
	}
	for _, s := range g.strategies {
		if r, ok := g.cell(scenario, s); ok && agentTurn(r) {
			shown = append(shown[:len(shown):len(shown)], agentMetrics...)
			break
		}
	}
	if hasCost(g, scenario) {
		shown = append(shown[:len(shown):len(shown)], costMetrics...)
	}
	if hasRegret(g) {
		shown = append(shown[:len(shown):len(shown)], regretMetric)
	}
	reasons, notes := reasonNotes(g, scenario)
	for i, m := range shown {
		row := []string{m.name}
		empty := i > 0 // the outcome row always stays
		for _, s := range g.strategies {
			v := noValue
			if r, ok := g.cell(scenario, s); ok {
				if m.value == nil {
					v = orNoValue(reasons[s])
				} else {
					v = m.value(r)
				}
			}
			empty = empty && (v == noValue || v == "0" || v == "0s")
			row = append(row, v)
		}
		if empty && !all {
			continue
		}
		rows = append(rows, row)
		if i == 1 { // after the reason row
			if e := expectedRow(g, scenario, exp); e != nil {
				rows = append(rows, e)
			}
		}
	}
	return header, rows, notes
}

// plainRows makes one row's cells safe for a terminal, each line of a cell
// on its own (a header broken over lines stays so).
func plainRows(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		lines := strings.Split(c, "\n")
		for j, l := range lines {
			lines[j] = texttable.Plain(l)
		}
		out[i] = strings.Join(lines, "\n")
	}
	return out
}

// plainTable makes every cell safe for a terminal.
func plainTable(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = plainRows(r)
	}
	return out
}

// render draws one ASCII table: the first column left-aligned, the others
// (numbers) right-aligned, headers as written, cut to fit width.
func render(buf *bytes.Buffer, header []string, rows [][]string, width int) error {
	return texttable.Render(buf, texttable.Table{Header: plainRows(header), Rows: plainTable(rows), Keys: 1, Left: 1, Width: width})
}

// renderAligned draws one ASCII table whose first left columns are
// left-aligned and the others right-aligned, headers as written, cut to fit
// [texttable.MaxWidth] with the first left columns repeated in every part.
// Every cell is made safe for a terminal first.
func renderAligned(buf *bytes.Buffer, header []string, rows [][]string, left int) error {
	return texttable.Render(buf, texttable.Table{Header: plainRows(header), Rows: plainTable(rows), Keys: left, Left: left})
}
