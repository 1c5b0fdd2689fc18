package reports

import (
	"bytes"
	"fmt"
	"io"

	"github.com/faultbench/faultbench/internal/texttable"
)

// Violation is one broken budget: the figure a run produced against what
// its scenario's expect block allows (docs/scenario-format.md). The harness finds them; the
// reports show them.
type Violation struct {
	Scenario string
	Strategy string
	Field    string // as in the expect block: outcome, attempts, wait, ...
	Budget   string // as written: "<= 4", "< 3s", "success"
	Got      string // the figure that broke it, in the budget's unit: "6", "7.5s"
}

// String says what broke, without the names: "attempts is 6, expected <= 4".
func (v Violation) String() string {
	return fmt.Sprintf("%s is %s, expected %s", v.Field, v.Got, v.Budget)
}

// key indexes results, violations and changes by scenario and strategy.
type key struct{ scenario, strategy string }

// violationsByCell groups violations by scenario and strategy, keeping
// their order.
func violationsByCell(vs []Violation) map[key][]Violation {
	out := make(map[key][]Violation, len(vs))
	for _, v := range vs {
		k := key{v.Scenario, v.Strategy}
		out[k] = append(out[k], v)
	}
	return out
}

// WriteViolations lists broken budgets for a CI log, one a line:
// "broken budget: classify on overloaded-then-backup: attempts is 6,
// expected <= 4". It writes nothing when there are none.
func WriteViolations(w io.Writer, vs []Violation) error {
	var buf bytes.Buffer
	for _, v := range vs { // names from files, made safe for a terminal or CI log
		fmt.Fprintf(&buf, "broken budget: %s on %s: %s\n", texttable.Plain(v.Strategy), texttable.Plain(v.Scenario), texttable.Plain(v.String()))
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing violations: %w", err)
	}
	return nil
}

// WriteComparison writes the rows of c that moved as an ASCII table with a
// line of counts above it, as the table report's baseline section shows
// them, for a CI log.
func WriteComparison(w io.Writer, c Comparison) error {
	var buf bytes.Buffer
	if err := writeComparison(&buf, c); err != nil {
		return err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("reports: writing comparison: %w", err)
	}
	return nil
}
