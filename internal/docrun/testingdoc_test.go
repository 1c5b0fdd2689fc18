package docrun

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exampleFence is a fenced code block of docs/testing.md, with its language.
var exampleFence = regexp.MustCompile("(?s)```(js|python|go)\n(.*?)```")

// TestTestingDocShowsTheSuites holds each example of docs/testing.md to
// the test it copies, so that every example on the page runs in CI.
func TestTestingDocShowsTheSuites(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "testing.md"))
	if err != nil {
		t.Fatal(err)
	}
	suites := map[string]string{
		"js":     "helpers/ts/test/sdk.test.mjs",
		"python": "helpers/python/tests/test_clients.py",
		"go":     "mockllm/mocktest/retry_test.go",
	}
	seen := map[string]bool{}
	for _, m := range exampleFence.FindAllStringSubmatch(string(doc), -1) {
		lang, code := m[1], m[2]
		src, err := os.ReadFile(filepath.Join(root, suites[lang]))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), code) {
			t.Errorf("docs/testing.md: the %s example is not in %s, word for word", lang, suites[lang])
		}
		if n := strings.Count(strings.TrimSpace(code), "\n") + 1; n >= 15 {
			t.Errorf("docs/testing.md: the %s example has %d lines; a test of a retry reads in under 15", lang, n)
		}
		seen[lang] = true
	}
	if len(seen) != len(suites) {
		t.Errorf("docs/testing.md shows %v; want an example in each of %v", seen, suites)
	}
}
