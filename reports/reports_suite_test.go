package reports

import (
	"flag"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// update rewrites the golden files in testdata/ from the current output:
// go test ./reports -update
var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

func TestReports(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Reports Suite")
}
