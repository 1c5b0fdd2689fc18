package strategyfile_test

import (
	"fmt"

	"github.com/faultbench/faultbench/recovery/strategyfile"
)

// A strategy file is a preset (base) and the settings it changes.
func ExampleParse() {
	s, err := strategyfile.Parse("mine.yaml", []byte(`name: mine
description: classify with a 20 s wait budget and at most 8 attempts a turn
base: classify
turn_attempts: 8
wait_budget: 20s
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Name, s.TurnAttempts, s.WaitBudget)

	_, err = strategyfile.Parse("typo.yaml", []byte("name: x\nbase: classify\nwait_budgte: 20s\n"))
	fmt.Println(err)
	// Output:
	// mine 8 20s
	// typo.yaml:3:1: wait_budgte: unknown field "wait_budgte"; did you mean "wait_budget"?
}
