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

// openCensusWorker is the stats worker go.opencensus.io starts in its
// init() for the life of the process; the Gemini SDK's auth package
// (cloud.google.com/go/auth) imports it, so every binary that links
// recovery/gemini has it. It is a dependency's, not a leak of ours.
const openCensusWorker = "go.opencensus.io/stats/view.(*worker).start"

// VerifyTestMain runs the package's tests and fails them when a goroutine
// outlives them, Ginkgo's own signal watcher and OpenCensus's worker
// excepted.
func VerifyTestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction(ginkgoInterrupts), goleak.IgnoreTopFunction(openCensusWorker))
}
