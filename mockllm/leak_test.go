package mockllm_test

import (
	"testing"

	"github.com/faultbench/faultbench/internal/leaktest"
)

// TestMain fails the package when a spec or benchmark leaves a goroutine
// behind: every endpoint a spec starts must be closed, and a hang must end
// with its request.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
