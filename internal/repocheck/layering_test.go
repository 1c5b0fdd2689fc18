package repocheck

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// deps returns every package of this module that pkg (a folder under the
// module root) imports, directly or not, from its non-test files.
func deps(t *testing.T, rootDir, pkg string) []string {
	t.Helper()
	seen := map[string]bool{}
	var visit func(dir string)
	visit = func(dir string) {
		files, err := filepath.Glob(filepath.Join(rootDir, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("%s: no Go files", dir)
		}
		fset := token.NewFileSet()
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				rel, ok := strings.CutPrefix(path, module+"/")
				if !ok || seen[rel] {
					continue
				}
				seen[rel] = true
				visit(rel)
			}
		}
	}
	visit(pkg)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// under reports whether pkg is prefix or a package below it.
func under(pkg, prefix string) bool {
	return pkg == prefix || strings.HasPrefix(pkg, prefix+"/")
}

// TestLayering keeps data flowing one way: the mock never depends on the
// engine, and the engine never on the mock, the harness, the ledger, the
// scenarios or the reports. What both sides need lives under internal/.
func TestLayering(t *testing.T) {
	r := root(t)
	rules := []struct {
		pkg       string
		forbidden []string
	}{
		{"mockllm", []string{"recovery", "harness", "ledger", "reports", "proptest", "cmd"}},
		{"recovery", []string{"mockllm", "harness", "ledger", "scenario", "reports", "proptest", "cmd"}},
		{"recovery/loopguard", []string{"mockllm", "harness", "ledger", "scenario", "reports", "proptest", "cmd"}},
		{"recovery/anthropic", []string{"mockllm", "harness", "ledger", "scenario", "reports", "proptest", "cmd"}},
		{"recovery/openai", []string{"mockllm", "harness", "ledger", "scenario", "reports", "proptest", "cmd"}},
		{"recovery/strategyfile", []string{"mockllm", "harness", "ledger", "scenario", "reports", "proptest", "cmd"}},
		{"scenario", []string{"recovery", "mockllm", "harness", "ledger", "reports", "proptest", "cmd"}},
		// grade judges a client from the mock's journal: never by the engine's
		// runner or its reports.
		{"grade", []string{"harness", "reports", "proptest", "cmd"}},
	}
	for _, rule := range rules {
		for _, d := range deps(t, r, rule.pkg) {
			for _, f := range rule.forbidden {
				if under(d, f) {
					t.Errorf("%s depends on %s (forbidden: %s/...)", rule.pkg, d, f)
				}
			}
		}
	}
}

// TestLayeringSeesImports guards the check itself: the ledger does import
// the engine, so deps must find it.
func TestLayeringSeesImports(t *testing.T) {
	if d := deps(t, root(t), "ledger"); !slices.Contains(d, "recovery") {
		t.Fatalf("deps(ledger) = %v, want recovery among them", d)
	}
}
