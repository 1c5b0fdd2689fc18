package proptest_test

import (
	"testing"

	"github.com/faultbench/faultbench/proptest"
	"github.com/faultbench/faultbench/recovery"
)

func TestMyStrategy(t *testing.T) {
	mine := recovery.Classifying()
	mine.Name = "mine"
	mine.Attempts = 8
	proptest.Check(t, mine) // the default suite, each property a subtest
}
