package strategyfile

import (
	"cmp"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/faultbench/faultbench/internal/excerpt"
	"github.com/faultbench/faultbench/internal/yamlhint"
)

// maxProblems bounds the problems one file reports, as the scenario
// loader's 100: a hostile file of a thousand bad keys is not a thousand
// lines of log.
const maxProblems = 100

// nodeUnmarshaler is what the file's own value types implement.
type nodeUnmarshaler interface{ UnmarshalYAML(ast.Node) error }

// checkTree walks the file against the fields of doc and returns every
// unknown field (with the field it probably meant) and every value of the
// wrong type, each with its line and field path, sorted by position:
// what the decoder would report one at a time.
func checkTree(file string, tree *ast.File) []*Error {
	c := treeChecker{file: file, tree: tree}
	for _, d := range tree.Docs {
		if d != nil && d.Body != nil {
			c.walk(d.Body, reflect.TypeFor[doc](), "")
		}
	}
	slices.SortStableFunc(c.errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	if len(c.errs) > maxProblems {
		c.errs = c.errs[:maxProblems]
	}
	return c.errs
}

type treeChecker struct {
	file string
	tree *ast.File
	errs []*Error
}

func (c *treeChecker) add(n ast.Node, field, msg string) {
	e := &Error{File: c.file, Field: field, Msg: msg}
	e.Line, e.Column = position(n.GetToken())
	c.errs = append(c.errs, e)
}

// walk checks node n against the Go type t of the field at path
// ("retry_after.cap"; "" for the file itself). It reports whether n is a
// value of the wrong type, which its parent then clears to null, so that
// the rest of the file decodes and its ranges are checked too.
func (c *treeChecker) walk(n ast.Node, t reflect.Type, path string) (wrong bool) {
	if len(c.errs) > maxProblems {
		return false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := n.(type) {
	case *ast.AnchorNode:
		return c.walk(x.Value, t, path)
	case *ast.TagNode:
		return c.walk(x.Value, t, path)
	case *ast.AliasNode, *ast.NullNode, *ast.CommentGroupNode, nil:
		return false // the decoder resolves an alias; null leaves a field out
	}
	if reflect.PointerTo(t).Implements(reflect.TypeFor[nodeUnmarshaler]()) || (t.Kind() != reflect.Struct && t.Kind() != reflect.Slice) {
		return c.leaf(n, t, path)
	}
	switch t.Kind() {
	case reflect.Struct:
		var pairs []*ast.MappingValueNode
		switch m := n.(type) {
		case *ast.MappingNode:
			pairs = m.Values
		case *ast.MappingValueNode:
			pairs = []*ast.MappingValueNode{m}
		default:
			c.add(n, path, "want "+wantOf(path)+", got "+describe(n))
			return true
		}
		known := fieldNames(t)
		for _, kv := range pairs {
			key := keyText(kv.Key)
			f, ok := fieldByTag(t, key)
			if !ok {
				c.add(kv.Key, join(path, clipKey(key)), "unknown field "+short(key)+yamlhint.Suggestion(key, known))
				continue
			}
			if c.walk(kv.Value, f.Type, join(path, key)) {
				kv.Value = ast.Null(token.New("null", "null", kv.Value.GetToken().Position))
			}
		}
	case reflect.Slice:
		seq, ok := n.(*ast.SequenceNode)
		if !ok {
			c.add(n, path, "want a list, got "+describe(n))
			return true
		}
		for i, v := range seq.Values {
			if c.walk(v, t.Elem(), path+"["+strconv.Itoa(i)+"]") {
				return true // the list as a whole is left out
			}
		}
	}
	return false
}

// leaf decodes one scalar as the decoder would, for its error.
func (c *treeChecker) leaf(n ast.Node, t reflect.Type, path string) bool {
	v := reflect.New(t)
	err := yaml.NodeToValue(n, v.Interface(), yaml.DisallowUnknownField())
	if err == nil {
		return false
	}
	e := asError(c.file, err, c.tree)
	e.Field = path
	if e.Line == 0 {
		e.Line, e.Column = position(n.GetToken())
	}
	c.errs = append(c.errs, e)
	return true
}

// wantOf words what a mapping field takes.
func wantOf(path string) string {
	if path == "" {
		return "a mapping of strategy fields (name, base, attempts, backoff, ...)"
	}
	return "a mapping"
}

// yamlTag is a struct field's name in the file.
func yamlTag(f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return tag
}

func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if tag := yamlTag(t.Field(i)); tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}

// keyText is a mapping key as written.
func keyText(k ast.MapKeyNode) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	if tk := k.GetToken(); tk != nil {
		return tk.Value
	}
	return k.String()
}

// clipKey is at most maxQuoted bytes of an unknown key, for its field
// path: the key is the file's text, and a message never copies a file.
func clipKey(key string) string {
	if len(key) <= maxQuoted {
		return key
	}
	return excerpt.Prefix(key, maxQuoted) + "…"
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
