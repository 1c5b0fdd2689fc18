package scenario

import (
	"reflect"

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
	// MaxTurns is the most turns a workload may have.
	MaxTurns = 1_000_000
	// MaxConcurrency is the most turns a workload may have in flight.
	MaxConcurrency = 10_000
)

var startType = reflect.TypeFor[Start]()

// decodeStart reads `together` or a mapping {every: D}.
func (d *decoder) decodeStart(n ast.Node, v reflect.Value, path string) {
	if x, ok := n.(*ast.StringNode); ok {
		if x.Value != "together" {
			d.typeError(n, path, "want together or a mapping such as {every: 500ms}, got %q", x.Value)
		}
		return
	}
	d.decodeStruct(n, v, path)
}

// workload checks a scenario's workload.
func (v *validator) workload(w Workload) {
	if w.IsZero() && w.Concurrency == 0 && w.Start == (Start{}) {
		return
	}
	if w.Turns < 1 || w.Turns > MaxTurns {
		v.errorf("workload.turns", "must be between 1 and %d, got %d", MaxTurns, w.Turns)
	}
	if w.Concurrency < 0 || w.Concurrency > MaxConcurrency {
		v.errorf("workload.concurrency", "must be between 0 (one at a time) and %d, got %d", MaxConcurrency, w.Concurrency)
	}
}
