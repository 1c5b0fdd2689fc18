package repocheck

import (
	"os"
	"path/filepath"
	"testing"
)

// module is the module path, as go.mod declares it.
const module = "github.com/faultbench/faultbench"

// root returns the module root: the nearest folder above the test's
// working directory that holds go.mod.
func root(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
