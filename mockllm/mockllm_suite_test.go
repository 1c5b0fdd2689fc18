package mockllm_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestMockLLM(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "mockllm")
}
