package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repoFiles lists the *.yaml files of the repository's folder dir (abs).
func repoFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.y*ml"))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		files[i] = filepath.Base(f)
	}
	slices.Sort(files)
	return files
}

// init writes the built-in suite, which is the repository's scenarios/ and
// strategies/ byte for byte; it refuses to overwrite without --force; and
// what it wrote validates with every budget known.
func TestInitWritesTheSuite(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	code, out, errOut := run(t, "init")
	if code != exitOK || !strings.Contains(out, "faultbench run scenarios/") {
		t.Fatalf("init: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, dir := range []string{"scenarios", "strategies"} {
		want := repoFiles(t, filepath.Join(repo, dir))
		if got := repoFiles(t, dir); !slices.Equal(got, want) || len(got) == 0 {
			t.Fatalf("%s: init wrote %v, the repository has %v", dir, got, want)
		}
		for _, f := range want {
			a, _ := os.ReadFile(filepath.Join(repo, dir, f))
			b, _ := os.ReadFile(filepath.Join(dir, f))
			if !bytes.Equal(a, b) {
				t.Errorf("%s/%s: init wrote other bytes than the repository's", dir, f)
			}
		}
	}
	mine := filepath.Join("scenarios", "flaky-5xx.yaml")
	if err := os.WriteFile(mine, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = run(t, "init")
	if code != exitBadInput || !strings.Contains(errOut, "--force") {
		t.Fatalf("init over the files: exit %d, stderr %q; want exit 2 naming --force", code, errOut)
	}
	if b, _ := os.ReadFile(mine); string(b) != "# mine\n" {
		t.Fatal("init without --force overwrote a file")
	}
	if code, _, errOut = run(t, "init", "--force"); code != exitOK {
		t.Fatalf("init --force: exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(mine); string(b) == "# mine\n" {
		t.Fatal("init --force left the file")
	}
	code, _, errOut = run(t, "validate", "scenarios/")
	if code != exitOK || errOut != "" {
		t.Fatalf("validate what init wrote: exit %d, stderr %q", code, errOut)
	}
	// init DIR writes under DIR.
	if code, _, errOut = run(t, "init", "sub/dir"); code != exitOK {
		t.Fatalf("init sub/dir: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join("sub", "dir", "strategies", "classify-loop-strict.yaml")); err != nil {
		t.Fatal(err)
	}
}

// Without a folder, where there is no scenarios/, run and validate read the
// built-in suite and say how to get its files.
func TestNoFolderUsesTheBuiltInSuite(t *testing.T) {
	computeOnly(t)
	t.Chdir(t.TempDir())
	code, out, errOut := run(t, "validate")
	if code != exitOK || errOut != builtInNote || strings.Count(out, "ok  ") < 40 {
		t.Fatalf("validate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = run(t, "run", "--strategies", "classify", "--summary-only")
	if code != exitOK || errOut != builtInNote || !strings.Contains(out, "| classify ") {
		t.Fatalf("run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
