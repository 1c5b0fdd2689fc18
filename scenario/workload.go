package scenario

import (
	"reflect"
	"time"

	"github.com/goccy/go-yaml/ast"
)

// Workload makes a scenario a fleet: Turns copies of its turn, at most
// Concurrency in flight, all sent by one engine per strategy on one
// virtual clock (docs/scenario-format.md). The zero Workload is one turn,
// as a scenario without it has.
type Workload struct {
	// Turns is how many copies of the turn run; 0 means no workload.
	Turns int `yaml:"turns"`
	// Concurrency is the most turns in flight at once; 0 means 1.
	Concurrency int `yaml:"concurrency"`
	// Start is when the turns start: together (the zero Start), or one
	// every Every.
	Start Start `yaml:"start"`
	// Background is how many of the turns are marked background (a
	// request the caller can do without), spread evenly among them: see
	// IsBackground. The turn's own background marks them all.
	Background int `yaml:"background"`
}

// IsBackground reports whether turn k (from 0) of the workload is one of
// its Background turns: the turns at which ⌊(k+1) × Background ÷ Turns⌋
// steps up, exactly Background of them spread evenly, so that 5 of 20 are
// turns 3, 7, 11, 15 and 19.
func (w Workload) IsBackground(k int) bool {
	if w.Background <= 0 || w.Turns <= 0 {
		return false
	}
	return (k*w.Background)/w.Turns != ((k+1)*w.Background)/w.Turns
}

// IsZero reports whether the scenario has no workload.
func (w Workload) IsZero() bool { return w.Turns == 0 }

// Start is when a workload's turns start: turn k (from 0) at k × Every,
// or as soon as a slot is free, whichever is later. Written `together`
// (Every 0) or {every: 500ms}.
type Start struct {
	Every Duration `yaml:"every"`
}

// The ceilings of a workload, so that a typo cannot ask for a billion
// goroutines.
const (
	// MaxTurns is the most turns a workload may have: 1,000, as many as
	// the largest fleet the repository runs (scenarios-large). Every turn
	// may retry, and at 1,000,000 a ten-line file ran for minutes and past
	// a gigabyte (docs/security.md).
	MaxTurns = 1_000
	// MaxConcurrency is the most turns a workload may have in flight: all
	// of them.
	MaxConcurrency = MaxTurns
	// MaxEvery is the longest start.every: a day between two turns' starts,
	// so that the last start of the most turns stays within time's range.
	MaxEvery = 24 * time.Hour
	// MaxStartSpan is the latest start of a workload's last turn, (turns −
	// 1) × every: 100 years of virtual time, well inside a time.Duration
	// (292 years), so that no turn's start overflows and starts before
	// an earlier one's.
	MaxStartSpan = 100 * 365 * 24 * time.Hour
)

var startType = reflect.TypeFor[Start]()

// decodeStart reads `together` or a mapping {every: D}.
func (d *decoder) decodeStart(n ast.Node, v reflect.Value, path string) {
	if x, ok := n.(*ast.StringNode); ok {
		if x.Value != "together" {
			d.typeError(n, path, "want together or a mapping such as {every: 500ms}, got %s", quote(x.Value))
		}
		return
	}
	d.decodeStruct(n, v, path)
}

// workload checks a scenario's workload.
func (v *validator) workload(w Workload) {
	if w.IsZero() && w.Concurrency == 0 && w.Start == (Start{}) && w.Background == 0 {
		return
	}
	if w.Turns < 1 || w.Turns > MaxTurns {
		v.errorf("workload.turns", "must be between 1 and %d, got %d", MaxTurns, w.Turns)
	}
	if w.Concurrency < 0 || w.Concurrency > MaxConcurrency {
		v.errorf("workload.concurrency", "must be between 0 (one at a time) and %d, got %d", MaxConcurrency, w.Concurrency)
	}
	if e := w.Start.Every.D(); e < 0 || e > MaxEvery {
		v.errorf("workload.start.every", "must be between 0 and %s, got %s", MaxEvery, e)
	} else if e > 0 && w.Turns > 1 && int64(w.Turns-1) > int64(MaxStartSpan/e) {
		v.errorf("workload.start.every", "the last of %d turns would start %d × %s in, past the ceiling of 100 years (%s)", w.Turns, w.Turns-1, e, MaxStartSpan)
	}
	if w.Background < 0 || w.Background > w.Turns {
		v.errorf("workload.background", "must be between 0 and turns (%d), got %d", w.Turns, w.Background)
	}
}
