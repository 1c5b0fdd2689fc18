package wire

import (
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// Calls answers as the plain list it replaces: Take answers the earliest
// waiting call with the id, First and Waiting follow, across table growth
// and a Reset.
func TestCallsAsAList(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c Calls
		var model []string // the waiting ids, in order
		for step := range rapid.IntRange(1, 400).Draw(t, "steps") {
			id := "call_" + strconv.Itoa(rapid.IntRange(0, 40).Draw(t, "id"))
			switch rapid.IntRange(0, 9).Draw(t, "op") {
			case 0:
				if step%50 == 0 {
					c.Reset()
					model = nil
				}
			case 1, 2, 3, 4, 5:
				c.Add(id)
				model = append(model, id)
			default:
				i := slices.Index(model, id)
				if got := c.Take(id); got != (i >= 0) {
					t.Fatalf("Take(%s) = %v with %v waiting", id, got, model)
				}
				if i >= 0 {
					model = slices.Delete(model, i, i+1)
				}
			}
			first := ""
			if len(model) > 0 {
				first = model[0]
			}
			if c.Len() != len(model) || c.First() != first || !slices.Equal(c.Waiting(), append([]string{}, model...)) {
				t.Fatalf("Len %d First %q Waiting %v; want %d %q %v", c.Len(), c.First(), c.Waiting(), len(model), first, model)
			}
		}
	})
}
