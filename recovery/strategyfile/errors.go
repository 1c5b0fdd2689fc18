package strategyfile

import (
	"errors"
	"fmt"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
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
func asError(file string, err error) *Error {
	var ve *valueError
	if errors.As(err, &ve) {
		e := &Error{File: file, Field: fieldOf(ve.node.GetPath()), Msg: ve.msg}
		e.Line, e.Column = position(ve.node.GetToken())
		return e
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		e := &Error{File: file, Msg: ye.GetMessage()}
		e.Line, e.Column = position(ye.GetToken())
		return e
	}
	return &Error{File: file, Msg: err.Error()}
}
