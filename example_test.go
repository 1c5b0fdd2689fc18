package faultbench_test

import (
	"fmt"
	"io/fs"

	"github.com/faultbench/faultbench"
)

// The built-in suite holds the default scenarios and the example strategy
// files, under the paths `faultbench init` writes them to.
func ExampleSuite() {
	for _, f := range []string{"scenarios/flaky-5xx.yaml", "strategies/classify-loop-strict.yaml"} {
		_, err := fs.Stat(faultbench.Suite(), f)
		fmt.Println(f, err == nil)
	}
	// Output:
	// scenarios/flaky-5xx.yaml true
	// strategies/classify-loop-strict.yaml true
}
