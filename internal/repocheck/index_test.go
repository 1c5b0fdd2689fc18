package repocheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeLines is the README's ceiling: a newcomer finishes it in the first
// hour, and the reference lives in docs/.
const readmeLines = 300

// TestReadmeIsShort fails when the README grows past readmeLines.
func TestReadmeIsShort(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > readmeLines {
		t.Errorf("README.md has %d lines, over %d: move the detail into a docs/ page and link it", n, readmeLines)
	}
}

// TestDocsIndexListsEveryPageOnce fails when a page of docs/ is missing
// from the index in docs/README.md, or listed twice there.
func TestDocsIndexListsEveryPageOnce(t *testing.T) {
	r := root(t)
	index, err := os.ReadFile(filepath.Join(r, "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(r, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, p := range pages {
		name := filepath.Base(p)
		if name == "README.md" {
			continue
		}
		rows++
		if n := strings.Count(string(index), "| ["+name+"]("+name+") |"); n != 1 {
			t.Errorf("docs/README.md lists %s in %d index rows, want 1", name, n)
		}
	}
	if rows == 0 {
		t.Fatal("no docs/*.md pages")
	}
}
