package scenario

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/internal/excerpt"
)

// Error is a problem in a scenario file. Error() is
// "FILE:LINE:COL: FIELD: MESSAGE"; a part that is unknown is left out
// (a missing top-level field has no line, a read error has no field).
//
// Parse, LoadFile and Load report every problem they find in a file at
// once, as an errors.Join of *Error values sorted by position: errors.As
// finds the first, Errors lists them all. Every error they return is bad
// input (exit code 2 in the command line).
type Error struct {
	File   string
	Line   int // 1-based; 0 when unknown
	Column int // 1-based; 0 when unknown
	// Field is the path of the field at fault, such as
	// script[2].respond.status or models["gpt-4.1"].max_output.
	Field string
	Msg   string
	// Err is the cause, when there is one (a read error such as
	// fs.ErrNotExist); Msg already says it in words.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Column))
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Errors returns every *Error in err, in order: the ones joined by Parse,
// LoadFile and Load, or err itself. It returns nil when err holds none.
func Errors(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if e, ok := err.(*Error); ok {
			out = append(out, e)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				walk(inner)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

// join sorts errs by file and position (errors without a line first, as
// they are about the whole file) and joins them; nil when there are none,
// the error itself when there is one.
func join(errs []*Error) error {
	if len(errs) == 0 {
		return nil
	}
	sortErrors(errs)
	if len(errs) == 1 {
		return errs[0]
	}
	all := make([]error, len(errs))
	for i, e := range errs {
		all[i] = e
	}
	return errors.Join(all...)
}

// sortErrors sorts errs by file and position, errors without a line first.
func sortErrors(errs []*Error) {
	slices.SortStableFunc(errs, func(a, b *Error) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
}

// maxQuoted is the most bytes of a value that an error message repeats:
// a message names a bad value, it never copies a file into a log.
const maxQuoted = 40

// clip is s, or its first maxQuoted bytes and its length when it is
// longer.
func clip(s string) string { return clipTo(s, maxQuoted) }

// clipTo is s, or its first n bytes and its length when it is longer.
func clipTo(s string, n int) string { return excerpt.Clip(s, n) }

// quote is s quoted for an error message, at most maxQuoted bytes of it.
func quote(s string) string { return excerpt.Quote(s, maxQuoted) }

// clipField shortens a field path that holds a long key.
func clipField(path string) string {
	if len(path) <= 4*maxQuoted {
		return path
	}
	return clipTo(path, 4*maxQuoted)
}
