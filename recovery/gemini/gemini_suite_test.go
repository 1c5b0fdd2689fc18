package gemini_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The specs here use gock, which patches process-wide state: they must not
// run in parallel.
func TestGemini(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "recovery/gemini")
}
