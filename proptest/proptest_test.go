package proptest_test

import (
	"testing"

	"github.com/faultbench/faultbench/internal/leaktest"
	"github.com/faultbench/faultbench/proptest"
	"github.com/faultbench/faultbench/recovery"
)

func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

// TestPresetsHoldEveryProperty is faultbench's own CI gate on its presets,
// and shows how a user gates theirs.
func TestPresetsHoldEveryProperty(t *testing.T) {
	proptest.Check(t, recovery.Presets()...)
}
