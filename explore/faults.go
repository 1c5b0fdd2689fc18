package explore

import "github.com/faultbench/faultbench/proptest/property"

// faults is the generator's vocabulary, the one proptest's generated
// scripts draw from too (property.Faults). Overflows and truncation come
// from the turn's sizes (turn), tool loops from toolTurn.
var faults = property.Faults

// FaultNames lists the names of the generator's scripted answers, in
// order: the faults a coverage test expects it to reach, beside the turn
// shapes of TurnShapes.
func FaultNames() []string {
	out := make([]string, len(faults))
	for i, f := range faults {
		out[i] = f.Name
	}
	return out
}
