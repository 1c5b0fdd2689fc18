package repocheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoTableSplitByABlankLine: a blank line inside a Markdown table ends
// it, and the rows after it render as a paragraph of pipes.
func TestNoTableSplitByABlankLine(t *testing.T) {
	r := root(t)
	files, err := filepath.Glob(filepath.Join(r, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(r, "README.md"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i := 2; i < len(lines); i++ {
			row := func(s string) bool { return strings.HasPrefix(s, "| ") || strings.HasPrefix(s, "|-") }
			header := i+1 < len(lines) && strings.HasPrefix(lines[i+1], "| ---") // a new table begins
			if row(lines[i]) && lines[i-1] == "" && row(lines[i-2]) && !header {
				t.Errorf("%s:%d: a blank line splits a table", filepath.Base(f), i)
			}
		}
	}
}
