package harness_test

import (
	"testing"

	"github.com/faultbench/faultbench/internal/leaktest"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

func TestHarness(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "harness")
}
