package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// Covered lists the folders whose every file with logic must hold a
// mutant: a non-test Go file with a branch (if, switch, select or for)
// outside the generated and example code.
var Covered = []string{"recovery", "mockllm", "ledger", "harness", "reports", "explore"}

// withBranches lists the non-test Go files under the Covered folders of
// root that hold a branch, as paths relative to root.
func withBranches(root string) ([]string, error) {
	var out []string
	for _, dir := range Covered {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			branches, err := hasBranch(p)
			if err != nil {
				return err
			}
			if branches {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return out, nil
}

func hasBranch(path string) (bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return false, err
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found, nil
}

// perFile counts the mutants of each file.
func perFile(mutants []Mutant) map[string]int {
	out := map[string]int{}
	for _, m := range mutants {
		out[m.File]++
	}
	return out
}

// uncovered lists the files of withBranches that no mutant names.
func uncovered(root string, mutants []Mutant) ([]string, error) {
	files, err := withBranches(root)
	if err != nil {
		return nil, err
	}
	counts := perFile(mutants)
	var out []string
	for _, f := range files {
		if counts[f] == 0 {
			out = append(out, f)
		}
	}
	return out, nil
}
