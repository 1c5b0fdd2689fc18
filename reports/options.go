package reports

import "github.com/faultbench/faultbench/internal/texttable"

// Options shape the rendered report. The zero value is ready to use.
type Options struct {
	// Strategies is the column order. Strategies named here come first, in
	// this order; any other strategy in the results follows in the order it
	// first appears, so no result is left out. Names with no result are
	// skipped. Empty means the order strategies first appear in the results.
	Strategies []string
	// Descriptions maps scenario name to its description (what it teaches),
	// printed under the scenario's title wrapped at [DescriptionWidth]. A
	// scenario with no entry gets no description.
	Descriptions map[string]string
	// Violations are the budgets the run broke (see [Violation]). The table,
	// Markdown and HTML list them, CSV gives each result its own, and JUnit
	// makes each one a failure of its test case. JSON leaves them out: it is
	// the record, the budgets are the scenarios'.
	Violations []Violation
	// Checked says the budgets were evaluated, so that an empty Violations
	// means they all hold (and Markdown and HTML say so) rather than that
	// nobody looked.
	Checked bool
	// Baseline, when set, is this run compared with a saved one (see
	// [Compare]). The table, Markdown and HTML show the rows that moved, and
	// JUnit makes each regression a failure. JSON and CSV leave it out.
	Baseline *Comparison
	// Shard, when set, says which slice of the grid the report holds; JSON
	// writes it so that [Merge] can put the slices back in order. Other
	// formats ignore it.
	Shard *Shard
	// Expectations are the outcomes the scenarios' expect blocks name, each
	// with whether its run met it (see [Expectation]), shown in the
	// scenario tables' "expected" row. None: no such row.
	Expectations []Expectation
	// Reference is the strategy the summary's ratios are against. Empty,
	// or a strategy that did not run: classify, or blind when classify did
	// not run, or else the first strategy shown.
	Reference string
	// Details prints every scenario's cost table in the text table, as
	// Markdown and HTML always do. By default the text table has, after its
	// grid, a short entry only for the scenarios where the strategies
	// differ: not all reached the best outcome, or one took more than
	// twice the attempts, input tokens or billed dollars of another.
	Details bool
	// Scenarios, when set, names the scenarios whose cost tables the text
	// table prints (instead of the short entries).
	Scenarios []string
	// AllRows keeps, in the scenario tables, the rows that are zero for
	// every strategy; by default they are left out.
	AllRows bool
	// SummaryOnly leaves the grid and the scenarios out of the text table
	// and of Markdown.
	SummaryOnly bool
	// Width is the widest line of the text table, in runes: its tables are
	// cut into parts and its grids into groups to fit, its prose wrapped.
	// 0 means [texttable.MaxWidth] (120); below [MinWidth] counts as
	// MinWidth. The command line passes the terminal's width (COLUMNS, else
	// the terminal's own, else 100).
	Width int
}

// MinWidth is the narrowest text table drawn: 40 columns.
const MinWidth = 40

// width is opts.Width as the text table applies it.
func (o Options) width() int {
	switch {
	case o.Width <= 0:
		return texttable.MaxWidth
	case o.Width < MinWidth:
		return MinWidth
	}
	return o.Width
}
