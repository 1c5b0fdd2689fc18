package main

import (
	"os"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/gendoc"
)

// TestReadmeGoSamples keeps the docs' Go samples the code of tests
// that run: each region is a test file as it is, from its imports on, so
// that the sample passes as written.
func TestReadmeGoSamples(t *testing.T) {
	for _, s := range []struct{ page, region, file string }{
		{"../../docs/properties.md", "proptest-quickstart", "../../proptest/quickstart_test.go"},
	} {
		src, err := os.ReadFile(s.file)
		if err != nil {
			t.Fatal(err)
		}
		_, code, ok := strings.Cut(string(src), "\n\nimport (")
		if !ok {
			t.Fatalf("%s: no import block after the package clause", s.file)
		}
		gendoc.Check(t, s.page, s.region, "```go\nimport ("+code+"```\n", *update, readmeUpdate)
	}
}
