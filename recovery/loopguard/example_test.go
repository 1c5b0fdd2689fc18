package loopguard_test

import (
	"fmt"

	"github.com/faultbench/faultbench/recovery/loopguard"
)

// The same call with the same result, again and again: the guard warns at
// the second (no progress) and breaks at the third.
func ExampleGuard() {
	g := loopguard.New(loopguard.Config{})
	call, err := loopguard.Of("read_file", []byte(`{"path": "a.txt"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 1; i <= 3; i++ {
		v := g.Observe(call, "the same text")
		fmt.Printf("%d %s %q\n", i, v.Level, v.Detector)
	}
	// Output:
	// 1 none ""
	// 2 warn "no_progress"
	// 3 break "no_progress"
}
