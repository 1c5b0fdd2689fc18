package strategyfile

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/faultbench/faultbench/internal/excerpt"
)

// Error is one problem in a strategy file.
type Error struct {
	File   string
	Line   int // 0 when unknown
	Column int
	Field  string // "backoff.factor"; empty for the file as a whole
	Msg    string
}

func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", where, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s: %s", where, e.Msg)
}

// valueError is what a scalar's decoder returns: the message, and the
// node it is about, so that the loader can say where.
type valueError struct {
	node ast.Node
	msg  string
}

func (e *valueError) Error() string { return e.msg }

func badValue(n ast.Node, format string, args ...any) error {
	return &valueError{node: n, msg: fmt.Sprintf(format, args...)}
}

// fieldOf turns goccy's "$.backoff.factor" into "backoff.factor".
func fieldOf(path string) string {
	switch {
	case path == "$":
		return ""
	case len(path) > 2 && path[:2] == "$.":
		return path[2:]
	}
	return path
}

func position(tk *token.Token) (line, col int) {
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	return tk.Position.Line, tk.Position.Column
}

// asError gives any decoding error the file, line and field it is about.
// A value of the wrong type is worded by the YAML field and what it
// wants ("attempts: want a whole number, got string "x""), not by the Go
// types behind the file; tree, when known, is where the field is found.
func asError(file string, err error, tree *ast.File) *Error {
	var ve *valueError
	if errors.As(err, &ve) {
		e := &Error{File: file, Field: fieldOf(ve.node.GetPath()), Msg: ve.msg}
		e.Line, e.Column = position(ve.node.GetToken())
		return e
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		// GetMessage, unlike Error, does not print the file's lines.
		e := &Error{File: file, Msg: clip(ye.GetMessage(), 4*maxQuoted)}
		e.Line, e.Column = position(ye.GetToken())
		if n := nodeAt(tree, e.Line, e.Column); n != nil {
			if want := wantAt(n.GetPath()); want != "" {
				e.Field = fieldOf(n.GetPath())
				e.Msg = "want " + want + ", got " + describe(n)
			}
		}
		return e
	}
	return &Error{File: file, Msg: clip(err.Error(), 4*maxQuoted)}
}

// nodeAt is the innermost node of tree that starts at line:col, nil when
// there is none.
func nodeAt(tree *ast.File, line, col int) ast.Node {
	if tree == nil || line == 0 {
		return nil
	}
	var found ast.Node
	for _, d := range tree.Docs {
		ast.Walk(visitor(func(n ast.Node) {
			if l, c := position(n.GetToken()); l == line && c == col {
				found = n
			}
		}), d)
	}
	return found
}

type visitor func(ast.Node)

func (v visitor) Visit(n ast.Node) ast.Visitor {
	v(n)
	return v
}

// wantAt says what the field at a goccy path ($.backoff.factor,
// $.retry[0]) takes, "" when the path names no field of a strategy file.
func wantAt(path string) string {
	t := reflect.TypeFor[file]()
	rest, ok := strings.CutPrefix(path, "$")
	if !ok {
		return ""
	}
	for rest != "" {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 || t.Kind() != reflect.Slice {
				return ""
			}
			t, rest = t.Elem(), rest[end+1:]
		case rest[0] == '.':
			name := rest[1:]
			if i := strings.IndexAny(name, ".["); i >= 0 {
				name, rest = name[:i], name[i:]
			} else {
				rest = ""
			}
			if t.Kind() != reflect.Struct {
				return ""
			}
			f, ok := fieldByTag(t, name)
			if !ok {
				return ""
			}
			t = f.Type
		default:
			return ""
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Struct:
		if path == "$" {
			return "a mapping of strategy fields (name, base, attempts, backoff, ...)"
		}
		return "a mapping"
	case reflect.Slice:
		return "a list"
	}
	return ""
}

// describe names a node's kind and, for a scalar, a short prefix of it.
func describe(n ast.Node) string {
	switch x := n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.StringNode:
		return "string " + short(x.Value)
	case *ast.NullNode:
		return "null"
	case *ast.LiteralNode:
		return "a block of text"
	}
	if tk := n.GetToken(); tk != nil {
		return clip(tk.Value, maxQuoted)
	}
	return n.Type().YAMLName()
}

// maxQuoted is the most bytes of a value an error message repeats: it
// names a bad value, it never copies a file into a log.
const maxQuoted = 40

// clip is s, or its first n bytes and its length when it is longer.
func clip(s string, n int) string { return excerpt.Clip(s, n) }

// short is s quoted, at most maxQuoted bytes of it.
func short(s string) string { return excerpt.Quote(s, maxQuoted) }
