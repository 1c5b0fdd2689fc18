package explore_test

import (
	"bytes"
	"fmt"

	"github.com/faultbench/faultbench/explore"
	"github.com/faultbench/faultbench/scenario"
)

// Generate makes a scenario from a seed and an index, the same bytes every
// time; Marshal writes it as a file that loads back.
func ExampleGenerate() {
	a := explore.Marshal(explore.Generate(1, 47, "generated"))
	b := explore.Marshal(explore.Generate(1, 47, "generated"))
	fmt.Println(bytes.Equal(a, b))
	sc, err := scenario.Parse("generated.yaml", a)
	fmt.Println(err, sc != nil && sc.Name == "generated")
	// Output:
	// true
	// <nil> true
}
