package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/gendoc"
)

// TestReadmeExploreSample runs docs/explore.md's transcript — explore,
// the file it wrote, and the run that checks it — and compares it with the
// page's generated:explore-sample region.
func TestReadmeExploreSample(t *testing.T) {
	computeOnly(t)
	readme, err := filepath.Abs("../../docs/explore.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	var b strings.Builder
	b.WriteString("```console\n$ faultbench explore --strategy blind --against classify --runs 200\n")
	code, out, errOut := run(t, "explore", "--strategy", "blind", "--against", "classify", "--runs", "200")
	if code != exitOK {
		t.Fatalf("explore: exit %d: %s", code, errOut)
	}
	b.WriteString(out)
	matches, _ := filepath.Glob(filepath.Join("explored", "*.yaml"))
	if len(matches) != 1 {
		t.Fatalf("explore wrote %v", matches)
	}
	file := filepath.ToSlash(matches[0])
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("$ cat " + file + "\n" + string(data))
	b.WriteString("$ faultbench run --check --strategies blind,classify " + file + " > /dev/null\n")
	code, _, errOut = run(t, "run", "--check", "--strategies", "blind,classify", file)
	if code != exitFailed {
		t.Fatalf("run --check on explore's file: exit %d, want 1: %s", code, errOut)
	}
	b.WriteString(errOut + "```\n")
	gendoc.Check(t, readme, "explore-sample", b.String(), *update, readmeUpdate)
}
