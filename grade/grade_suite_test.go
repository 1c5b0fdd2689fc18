package grade_test

import (
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/fakeclient"
	"github.com/faultbench/faultbench/internal/leaktest"
)

// TestMain is the fake client when fakeclient.Env is set, and otherwise
// runs the tests and fails them when a goroutine outlives them.
func TestMain(m *testing.M) {
	if p := os.Getenv(fakeclient.Env); p != "" {
		os.Exit(fakeclient.Run(p))
	}
	leaktest.VerifyTestMain(m)
}

func TestGrade(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "grade")
}
