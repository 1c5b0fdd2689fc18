package strategyfile

import (
	"cmp"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/faultbench/faultbench/internal/excerpt"
	"github.com/faultbench/faultbench/internal/yamlhint"
	"github.com/faultbench/faultbench/recovery"
)

// maxProblems bounds the problems one file reports, as the scenario
// loader's 100: a hostile file of a thousand bad keys is not a thousand
// lines of log.
const maxProblems = 100

// file is a strategy file: a preset to start from, and the strategy's own
// fields, which the decoder writes over a copy of the preset.
type file struct {
	Base              string `yaml:"base"`
	recovery.Strategy `yaml:",inline"`
}

// checkTree walks the body of a strategy file against the fields of file
// and returns the body to decode and every unknown field (with the field
// it probably meant) and every value of the wrong type, each with its line
// and field path, sorted by position: what the decoder would report one
// at a time. In the body returned, a value of the wrong type and a null
// are left out, so that the rest of the file decodes (and its ranges are
// checked too), and a field set to null keeps the base's value.
func checkTree(name string, tree *ast.File, body ast.Node) (ast.Node, []*Error) {
	c := treeChecker{file: name, tree: tree}
	body = c.walk(body, reflect.TypeFor[file](), "")
	slices.SortStableFunc(c.errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	if len(c.errs) > maxProblems {
		c.errs = c.errs[:maxProblems]
	}
	return body, c.errs
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
// ("retry_after.cap"; "" for the file itself) and returns the node to
// decode there: nil for a null or a value of the wrong type, which its
// parent leaves out.
func (c *treeChecker) walk(n ast.Node, t reflect.Type, path string) ast.Node {
	if len(c.errs) > maxProblems {
		return nil
	}
	switch x := n.(type) {
	case *ast.AnchorNode:
		if x.Value = c.walk(x.Value, t, path); x.Value == nil {
			return nil
		}
		return x
	case *ast.TagNode:
		if c.walk(x.Value, t, path) == nil {
			return nil
		}
		return x
	case *ast.NullNode, *ast.CommentGroupNode, nil:
		return nil // null leaves a field out
	case *ast.AliasNode:
		return x // the decoder resolves an alias
	}
	if readers[t] != nil || (t.Kind() != reflect.Struct && t.Kind() != reflect.Slice) {
		return c.leaf(n, t, path)
	}
	if t.Kind() == reflect.Slice {
		seq, ok := n.(*ast.SequenceNode)
		if !ok {
			c.add(n, path, "want a list, got "+describe(n))
			return nil
		}
		for i, v := range seq.Values {
			if c.walk(v, t.Elem(), path+"["+strconv.Itoa(i)+"]") == nil {
				return nil // the list as a whole is left out
			}
		}
		return n
	}
	var pairs []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingNode:
		pairs = m.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{m}
	default:
		c.add(n, path, "want "+wantOf(path)+", got "+describe(n))
		return nil
	}
	var kept []*ast.MappingValueNode
	for _, kv := range pairs {
		key := keyText(kv.Key)
		f, ok := fieldByTag(t, key)
		if !ok {
			c.add(kv.Key, join(path, clipKey(key)), "unknown field "+short(key)+yamlhint.Suggestion(key, fieldNames(t)))
			continue
		}
		if v := c.walk(kv.Value, f.Type, join(path, key)); v != nil {
			kv.Value = v
			kept = append(kept, kv)
		}
	}
	return ast.Mapping(n.GetToken(), true, kept...)
}

// leaf reads one value as the decoder would, for its error.
func (c *treeChecker) leaf(n ast.Node, t reflect.Type, path string) ast.Node {
	var err error
	if read := readers[t]; read != nil {
		_, err = read(n)
	} else {
		err = yaml.NodeToValue(n, reflect.New(t).Interface(), decodeOptions()...)
	}
	if err == nil {
		return n
	}
	e := asError(c.file, err, c.tree)
	if e.Field == "" || !strings.HasPrefix(e.Field, path) {
		e.Field = path
	}
	if e.Line == 0 {
		e.Line, e.Column = position(n.GetToken())
	}
	c.errs = append(c.errs, e)
	return nil
}

// wantOf words what a mapping field takes.
func wantOf(path string) string {
	if path == "" {
		return "a mapping of strategy fields (name, base, attempts, backoff, ...)"
	}
	return "a mapping"
}

// fields are the fields of struct type t by their names in the file, the
// fields of an inline struct among them.
func fields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case f.Anonymous && strings.Contains(opts, "inline"):
			out = append(out, fields(f.Type)...)
		case tag != "" && tag != "-" && f.IsExported():
			f.Name = tag
			out = append(out, f)
		}
	}
	return out
}

// fieldByTag is the field of t named name in the file; its Name is that
// name.
func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for _, f := range fields(t) {
		if f.Name == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func fieldNames(t reflect.Type) []string {
	var out []string
	for _, f := range fields(t) {
		out = append(out, f.Name)
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
