package recovery_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TestRecovery runs every Ginkgo spec of package recovery: the classifier,
// retry-after and backoff tables here, the engine specs beside them.
func TestRecovery(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "recovery")
}
