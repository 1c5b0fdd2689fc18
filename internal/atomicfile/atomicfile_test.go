package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symlink at the path is replaced by the new file; what it pointed to
// is left as it was.
func TestWriteFileReplacesASymlinkInsteadOfWritingThroughIt(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "r.json")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("report"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Fatalf("the symlink's target now holds %q", b)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 {
		t.Fatalf("the path is still a symlink (%v)", err)
	}
	if b, _ := os.ReadFile(link); string(b) != "report" {
		t.Fatalf("the path holds %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("%d files left in the folder, want 2 (no temporary file)", len(ents))
	}
}

// A path that cannot be written is named in the error, before and after
// the work; a folder is not written over.
func TestUnwritablePathsAreNamed(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "no", "such", "r.json"), dir} {
		if err := CheckWritable(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("CheckWritable(%s) = %v", path, err)
		}
		if err := WriteFile(path, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("WriteFile(%s) = %v", path, err)
		}
	}
	ok := filepath.Join(dir, "r.json")
	if err := CheckWritable(ok); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(ok); !os.IsNotExist(err) {
		t.Fatalf("CheckWritable left %s behind", ok)
	}
}

// WriteFileIf asks before it puts the file in place: a refusal leaves
// the old file and no temporary one.
func TestWriteFileIfLeavesTheOldFileWhenRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := os.ErrDeadlineExceeded
	if err := WriteFileIf(path, []byte("new"), 0o644, func() error { return stop }); err != stop {
		t.Fatalf("got %v, want the refusal", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Fatalf("the file holds %q", data)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files left, want the old one alone", len(ents))
	}
	if err := RemoveStale(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("RemoveStale left it: %v", err)
	}
	if err := RemoveStale(path); err != nil {
		t.Fatalf("nothing there is no error: %v", err)
	}
	if err := RemoveStale(dir); err == nil {
		t.Fatal("a folder was not refused")
	}
}
