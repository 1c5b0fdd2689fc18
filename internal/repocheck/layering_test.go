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
		{"recovery/circuitbreaker", []string{"mockllm", "harness", "ledger", "scenario", "reports", "proptest", "cmd"}},
		{"recovery/adaptivelimiter", []string{"mockllm", "harness", "ledger", "scenario", "reports", "proptest", "cmd"}},
		{"recovery/retrybudget", []string{"mockllm", "harness", "ledger", "scenario", "reports", "proptest", "cmd"}},
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

// floors is the allowed-imports table: for each package of the module (a
// folder, or a folder and every package below it when it ends in "/..."),
// the packages of the module it may import directly, each an entry or a
// package below one. The longest key that names a package is its rule.
// The floors run up: internal utilities; the engine (recovery) and the
// scenario format; the mock and the ledger; the harness; reports, grade,
// the Go test helper (mockllm/mocktest), the property suite and explore;
// the command.
var floors = map[string][]string{
	".":                       {},
	"internal/...":            {"internal"},
	"recovery/loopguard":      {"internal"},
	"recovery":                {"internal", "recovery/adaptivelimiter", "recovery/circuitbreaker", "recovery/loopguard", "recovery/retrybudget"},
	"recovery/circuitbreaker": {"internal"},
	"recovery/retrybudget":    {"internal"},
	"recovery/internal/...":   {"internal", "recovery", "recovery/internal"},
	"recovery/anthropic":      {"internal", "recovery", "recovery/internal"},
	"recovery/gemini":         {"internal", "recovery", "recovery/internal"},
	"recovery/openai":         {"internal", "recovery", "recovery/internal"},
	"recovery/strategyfile":   {"internal", "recovery"},
	"scenario":                {"internal"},
	"mockllm":                 {"internal", "scenario", "mockllm/internal"},
	"mockllm/internal/...":    {"internal", "scenario", "mockllm/internal"},
	"ledger":                  {"internal", "recovery"},
	"harness":                 {"internal", "ledger", "mockllm", "recovery", "scenario"},
	"reports":                 {"internal", "ledger"},
	"grade":                   {"internal", "ledger", "mockllm", "scenario"},
	"mockllm/mocktest":        {"internal", "grade", "harness", "ledger", "mockllm", "scenario"},
	"proptest/property":       {"internal", "ledger", "recovery", "scenario"},
	"proptest":                {"internal", "harness", "ledger", "proptest/property", "recovery", "scenario"},
	"explore":                 {"internal", "harness", "ledger", "mockllm", "proptest/property", "recovery", "scenario"},
	"cmd/...":                 {"."},

	// A cross-turn policy in its own folder, as circuitbreaker and
	// retrybudget are.
	"recovery/adaptivelimiter": {"internal"},
}

// floorOf is the rule of pkg, and whether it has one.
func floorOf(pkg string) ([]string, bool) {
	best, found := "", false
	for k := range floors {
		base, tree := strings.CutSuffix(k, "/...")
		if (pkg == k || (tree && under(pkg, base))) && (!found || len(k) > len(best)) {
			best, found = k, true
		}
	}
	return floors[best], found
}

// eachSource calls visit with the path of every non-test Go file of the
// module under r, leaving out hidden folders, testdata and node_modules.
func eachSource(r string, visit func(path string) error) error {
	return filepath.WalkDir(r, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != r && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		return visit(path)
	})
}

// TestEveryPackageKeepsToItsFloor: every package of the module has a rule
// in floors, and imports directly only what it allows (the command may
// import anything of the module).
func TestEveryPackageKeepsToItsFloor(t *testing.T) {
	r := root(t)
	checked := 0
	err := eachSource(r, func(path string) error {
		rel, _ := filepath.Rel(r, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		allowed, ok := floorOf(pkg)
		if !ok {
			t.Errorf("%s: no rule in floors (internal/repocheck/layering_test.go): add one", pkg)
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		af, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			dep, own := strings.CutPrefix(p, module+"/")
			if !own || under(pkg, "cmd") {
				continue
			}
			if !slices.ContainsFunc(allowed, func(a string) bool { return under(dep, a) }) {
				t.Errorf("%s imports %s: its floor allows %v", filepath.ToSlash(strings.TrimPrefix(path, r+"/")), dep, allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked %d files; the walk missed the module", checked)
	}
}

// TestFloorsSeeABreach guards the check itself: the ledger may import
// the engine, not the mock.
func TestFloorsSeeABreach(t *testing.T) {
	allowed, ok := floorOf("ledger")
	if !ok || slices.ContainsFunc(allowed, func(a string) bool { return under("mockllm", a) }) {
		t.Fatalf("floorOf(ledger) = %v, %v", allowed, ok)
	}
	if a, ok := floorOf("mockllm/internal/bucket"); !ok || !slices.Contains(a, "mockllm/internal") {
		t.Fatalf("floorOf(mockllm/internal/bucket) = %v, %v", a, ok)
	}
}
