package repocheck

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// trackedFiles lists the repository's tracked files, relative to the
// module root: git ls-files when git and a repository are there, else
// every file of the tree but .git.
func trackedFiles(t *testing.T, rootDir string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = rootDir
	if out, err := cmd.Output(); err == nil && len(out) > 0 {
		var files []string
		for _, f := range bytes.Split(bytes.TrimRight(out, "\x00"), []byte{0}) {
			files = append(files, string(f))
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(rootDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(rootDir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// citations are what no tracked file may cite: documents users never see.
// Built by concatenation so that this file does not cite them itself.
var citations = []string{"SPEC" + " §", "SPEC" + ".md", "shared" + "/reference"}

// TestNoCitationOfUnpublishedDocuments fails when a tracked file cites the
// product contract or the reference write-ups, which are not in the
// repository: the docs/ folder is where users read them.
func TestNoCitationOfUnpublishedDocuments(t *testing.T) {
	r := root(t)
	files := trackedFiles(t, r)
	if !slices.Contains(files, "go.mod") {
		t.Fatalf("tracked files miss go.mod: %d files listed", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(r, f))
		if err != nil {
			if os.IsNotExist(err) { // deleted in the working tree, not yet committed
				continue
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue // binary
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
		for n := 1; sc.Scan(); n++ {
			for _, c := range citations {
				if strings.Contains(sc.Text(), c) {
					t.Errorf("%s:%d cites %q, which users do not have: cite a docs/ page instead", f, n, c)
				}
			}
		}
	}
}

// mdLink finds the target of an inline Markdown link or image.
var mdLink = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)

// TestDocLinksResolve fails when a relative link in README.md or docs/*.md
// points at no file, or at a heading its file does not have.
func TestDocLinksResolve(t *testing.T) {
	r := root(t)
	pages, err := filepath.Glob(filepath.Join(r, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(r, "README.md")}, pages...)
	if len(pages) < 2 {
		t.Fatal("no docs/*.md pages")
	}
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(r, page)
		for _, m := range mdLink.FindAllStringSubmatch(stripCode(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Errorf("%s: link %q: no such file", rel, target)
				continue
			}
			if anchor == "" || info.IsDir() || !strings.HasSuffix(path, ".md") {
				continue
			}
			content, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(anchors(string(content)), anchor) {
				t.Errorf("%s: link %q: %s has no heading with that anchor (has %v)", rel, target, filepath.Base(path), anchors(string(content)))
			}
		}
	}
}

// stripCode removes fenced code blocks, whose brackets are not links.
func stripCode(md string) string {
	var out strings.Builder
	fenced := false
	for line := range strings.Lines(md) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out.WriteString(line)
		}
	}
	return out.String()
}

// anchors returns the anchors GitHub gives a page's headings: lower case,
// punctuation dropped, spaces as hyphens, a repeated one suffixed -1, -2.
func anchors(md string) []string {
	var out []string
	seen := map[string]int{}
	for line := range strings.Lines(stripCode(md)) {
		line = strings.TrimSpace(line)
		text, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		text = strings.TrimSpace(strings.TrimLeft(text, "#"))
		var b strings.Builder
		for _, c := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(c), unicode.IsDigit(c), c == '-', c == '_':
				b.WriteRune(c)
			case c == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out = append(out, a+"-"+itoa(n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

// TestAnchors guards the slug rule against GitHub's own examples.
func TestAnchors(t *testing.T) {
	got := anchors("# Reports\n## JSON: the machine contract\n### `expect`: budgets\n## Agent turns: tools\n## Reports\n```\n# not a heading\n```\n")
	want := []string{"reports", "json-the-machine-contract", "expect-budgets", "agent-turns-tools", "reports-1"}
	if !slices.Equal(got, want) {
		t.Fatalf("anchors = %q, want %q", got, want)
	}
}
