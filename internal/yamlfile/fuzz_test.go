package yamlfile_test

import (
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/faultbench/faultbench/internal/yamlfile"
)

// depth is the deepest nesting of mappings and lists in what the parser
// built.
func depth(n ast.Node) int {
	deepest := 0
	var walk func(ast.Node, int)
	walk = func(n ast.Node, d int) {
		if n == nil {
			return
		}
		switch x := n.(type) {
		case *ast.MappingNode:
			d++
			for _, v := range x.Values {
				walk(v.Value, d)
			}
		case *ast.MappingValueNode:
			d++
			walk(x.Value, d)
		case *ast.SequenceNode:
			d++
			for _, v := range x.Values {
				walk(v, d)
			}
		case *ast.AnchorNode:
			walk(x.Value, d)
		case *ast.TagNode:
			walk(x.Value, d)
		}
		deepest = max(deepest, d)
	}
	walk(n, 0)
	return deepest
}

// Check may count a level too many; it must never let through a file
// that the parser nests deeper than MaxDepth.
//
//	go test -run '^$' -fuzz FuzzCheckNeverUndercounts -fuzztime 60s -fuzzminimizetime 0 ./internal/yamlfile/
//
// (Minimising a large input runs the parser at length: hence no
// minimisation.)
func FuzzCheckNeverUndercounts(f *testing.F) {
	for _, s := range []string{
		"a: [[1]]\n", "- - - x\n", "a:\n  b:\n    c: [1, {d: [2]}]\n", "a: \"[[[\"\n", "a: |\n  [[[\nb: [1]\n",
		"a: '[[''[[['\n", "? [a]\n: [b]\n", "a: &x [[1]]\nb: !t [[2]]\n", "- a: [\n  [\n   [1]]]\n",
		"a: {b: \"}\", c: [d]}\n", "a: b # [[[\nc: [[1]]\n", "--- [[1]]\n", "a:\t[[1]]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Grow what the fuzzer found: the same text nested many times.
		for _, data := range []string{s, strings.Repeat(s, 3), "a: " + strings.Repeat("[", 20) + s + strings.Repeat("]", 20)} {
			if yamlfile.Check([]byte(data)) != nil {
				continue
			}
			file, err := parser.ParseBytes([]byte(data), 0)
			if err != nil {
				continue
			}
			for _, doc := range file.Docs {
				if doc == nil {
					continue
				}
				// A mapping counts twice in the walk (the mapping and its
				// key-value node): allow for it.
				if d := depth(doc.Body); d > 2*yamlfile.MaxDepth+2 {
					t.Fatalf("Check let through depth %d:\n%q", d, data)
				}
			}
		}
	})
}
