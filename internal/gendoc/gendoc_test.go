package gendoc

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const page = "# Title\n\ntext\n<!-- generated:table -->\n| a |\n| 1 |\n<!-- end generated -->\n\nafter\n<!-- generated:empty -->\n<!-- end generated -->\n"

func TestRegion(t *testing.T) {
	got, err := Region([]byte(page), "table")
	if err != nil || got != "| a |\n| 1 |\n" {
		t.Fatalf("Region(table) = %q, %v", got, err)
	}
	if got, err := Region([]byte(page), "empty"); err != nil || got != "" {
		t.Fatalf("Region(empty) = %q, %v", got, err)
	}
	if _, err := Region([]byte(page), "nosuch"); !errors.Is(err, ErrNoRegion) {
		t.Fatalf("Region(nosuch): err = %v, want ErrNoRegion", err)
	}
	if _, err := Region([]byte("<!-- generated:x -->\nno end\n"), "x"); err == nil {
		t.Fatal("an unclosed region: no error")
	}
	twice := page + "<!-- generated:table -->\n<!-- end generated -->\n"
	if _, err := Region([]byte(twice), "table"); err == nil {
		t.Fatal("a region marked twice: no error")
	}
}

func TestReplaceKeepsEverythingOutsideTheMarkers(t *testing.T) {
	out, err := Replace([]byte(page), "table", "| b |")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(page, "| a |\n| 1 |\n", "| b |\n", 1)
	if string(out) != want {
		t.Fatalf("Replace:\n%s\nwant:\n%s", out, want)
	}
	out, err = Replace(out, "empty", "filled\n")
	if err != nil || !strings.Contains(string(out), "<!-- generated:empty -->\nfilled\n<!-- end generated -->") {
		t.Fatalf("Replace(empty) = %q, %v", out, err)
	}
}

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msg = format
}

func TestCheckFailsOnADifferenceAndUpdateRewrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, path, "table", "| a |\n| 1 |\n", false, "cmd")
	if r.failed {
		t.Fatal("the same text failed the check")
	}
	Check(r, path, "table", "| a |\n| 2 |\n", false, "cmd")
	if !r.failed {
		t.Fatal("a different text passed the check")
	}
	Check(t, path, "table", "| a |\n| 2 |\n", true, "cmd")
	r = &recorder{TB: t}
	Check(r, path, "table", "| a |\n| 2 |\n", false, "cmd")
	if r.failed {
		t.Fatal("after -update the check still fails")
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "# Title\n\ntext\n") || !strings.HasSuffix(string(data), "after\n<!-- generated:empty -->\n<!-- end generated -->\n") {
		t.Fatalf("update touched text outside the region:\n%s", data)
	}
}
