package mockllm_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a spec or benchmark leaves a goroutine
// behind: every endpoint a spec starts must be closed. Ginkgo's own
// interrupt handler is not ours: RunSpecs can return before it has seen
// its stop signal.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/onsi/ginkgo/v2/internal/interrupt_handler.(*InterruptHandler).registerForInterrupts.func2"),
	)
}
