package docrun

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// workflowFence opens a YAML block; it is a CI workflow (or a piece of
// one) when it has jobs or steps with a `run:`.
var workflowFence = regexp.MustCompile("^```ya?ml\\s*$")

// runKey is a line with a `run:` key, which a workflow's step has.
var runKey = regexp.MustCompile(`(?m)^\s*(- )?run:`)

// matrixRef is a workflow's `${{ matrix.NAME }}`.
var matrixRef = regexp.MustCompile(`\$\{\{\s*matrix\.(\w+)\s*\}\}`)

// workflow reads the `run:` steps of a YAML block, in order, as one
// block of commands: a step that names `${{ matrix.K }}` runs once per
// value of the block's matrix K, in the matrix's order. Any other `${{ }}`
// expression fails the test, as the shell could not run it as written. A
// YAML block without a `run:` is not a workflow and gives no block.
func workflow(t *testing.T, file string, first int, lines []string) (block, bool) {
	t.Helper()
	src := strings.Join(lines, "\n")
	if !runKey.MatchString(src) {
		return block{}, false
	}
	f, err := parser.ParseBytes([]byte(src), 0)
	if err != nil {
		t.Fatalf("%s:%d: a YAML block that does not parse: %v", file, first, err)
	}
	matrix := map[string][]string{}
	bl := block{file: file, line: first}
	for _, doc := range f.Docs {
		for _, n := range ast.Filter(ast.MappingValueType, doc) {
			mv := n.(*ast.MappingValueNode)
			switch mv.Key.String() {
			case "matrix":
				var m map[string][]any
				if err := yaml.NodeToValue(mv.Value, &m); err != nil {
					t.Fatalf("%s:%d: matrix: %v", file, first+mv.GetToken().Position.Line-1, err)
				}
				for k, vs := range m {
					for _, v := range vs {
						matrix[k] = append(matrix[k], fmt.Sprint(v))
					}
				}
			case "run":
				var text string
				if err := yaml.NodeToValue(mv.Value, &text); err != nil {
					t.Fatalf("%s:%d: run: %v", file, first+mv.GetToken().Position.Line-1, err)
				}
				line := first + mv.GetToken().Position.Line - 1
				bl.cmds = append(bl.cmds, command{file: file, line: line, text: strings.TrimRight(text, "\n")})
			}
		}
	}
	if len(bl.cmds) == 0 {
		return block{}, false
	}
	var cmds []command
	for _, c := range bl.cmds {
		refs := matrixRef.FindAllStringSubmatch(c.text, -1)
		if len(refs) == 0 {
			cmds = append(cmds, c)
			continue
		}
		key := refs[0][1]
		for _, r := range refs {
			if r[1] != key {
				t.Fatalf("%s:%d: a step over two matrix keys, %s and %s: the test expands one", c.file, c.line, key, r[1])
			}
		}
		if len(matrix[key]) == 0 {
			t.Fatalf("%s:%d: matrix.%s has no values in its block", c.file, c.line, key)
		}
		for _, v := range matrix[key] {
			one := c
			one.text = matrixRef.ReplaceAllString(c.text, v)
			cmds = append(cmds, one)
		}
	}
	for _, c := range cmds {
		if strings.Contains(c.text, "${{") {
			t.Fatalf("%s:%d: a step with an expression the test cannot expand: %s", c.file, c.line, firstLine(c.text))
		}
	}
	bl.cmds = cmds
	return bl, true
}
