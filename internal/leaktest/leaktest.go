// Package leaktest holds the goleak options shared by the packages whose
// tests start servers and goroutines.
package leaktest

import (
	"testing"

	"go.uber.org/goleak"
)

// ginkgoInterrupts is the signal watcher Ginkgo's RunSpecs starts and keeps
// for the life of the process; it is Ginkgo's, not a leak of ours.
const ginkgoInterrupts = "github.com/onsi/ginkgo/v2/internal/interrupt_handler.(*InterruptHandler).registerForInterrupts.func2"

// VerifyTestMain runs the package's tests and fails them when a goroutine
// outlives them, Ginkgo's own signal watcher excepted.
func VerifyTestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction(ginkgoInterrupts))
}
