package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// The ceilings a YAML file must keep to, checked before it is parsed.
const (
	// MaxBytes is the largest file read: 1.5 MiB. The largest file in
	// the default suite is under 4 KB; a file of 40,000 message groups
	// (1.1 MB) still loads.
	MaxBytes = 1536 << 10
	// MaxDepth is the deepest nesting of mappings, lists and flow
	// brackets: 32. A scenario needs 6.
	MaxDepth = 32
	// MaxKeys is the most keys one mapping may have: 256.
	MaxKeys = 256
)

// The causes of the problems Check reports, for errors.Is.
var (
	ErrTooLarge    = errors.New("file too large")
	ErrNotText     = errors.New("not a YAML text file")
	ErrTooDeep     = errors.New("nested too deep")
	ErrTooManyKeys = errors.New("mapping has too many keys")
)

// Problem is why a file is refused before parsing: a message that never
// quotes the file, and where (Line is 0 when it is about the whole file).
type Problem struct {
	Line, Column int
	Msg          string
	Err          error
}

func (p *Problem) Error() string { return p.Msg }

// Unwrap returns the cause: one of the Err values of this package.
func (p *Problem) Unwrap() error { return p.Err }

func tooLarge(size int64) *Problem {
	msg := fmt.Sprintf("file too large: more than %d bytes (1.5 MiB), the ceiling for a YAML file", MaxBytes)
	if size >= 0 {
		msg = fmt.Sprintf("file too large: %d bytes, over the ceiling of %d bytes (1.5 MiB) for a YAML file", size, MaxBytes)
	}
	return &Problem{Msg: msg, Err: ErrTooLarge}
}

// Check refuses data that is larger than MaxBytes, is not UTF-8 text
// without NUL bytes, or nests deeper than MaxDepth or holds a mapping of
// more than MaxKeys keys. The nesting is read by a small scanner that
// follows YAML's layout (indentation, "- " entries, flow brackets, quoted
// strings, block scalars, comments) without parsing: it may count a
// level too many in odd files, never one too few for a file the parser
// reads.
func Check(data []byte) *Problem {
	if len(data) > MaxBytes {
		return tooLarge(int64(len(data)))
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		line, col := lineCol(data, i)
		return &Problem{Line: line, Column: col, Err: ErrNotText,
			Msg: "not a YAML text file: it holds a NUL byte (its content is not shown)"}
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		line, col := lineCol(data, i)
		return &Problem{Line: line, Column: col, Err: ErrNotText,
			Msg: "not a YAML text file: it is not valid UTF-8 (its content is not shown)"}
	}
	return (&scanner{}).scan(data)
}

func lineCol(data []byte, i int) (line, col int) {
	line = 1 + bytes.Count(data[:i], []byte{'\n'})
	return line, i - (bytes.LastIndexByte(data[:i], '\n') + 1) + 1
}

// level is one open block node: the column its entries start at and the
// keys seen at that column so far.
type level struct{ col, keys int }

type scanner struct {
	stack []level
	flow  int  // open flow brackets
	quote byte // the quote of an open quoted string, 0 outside one
	// block is the indentation of the line that opened a block scalar
	// (| or >), -1 outside one: lines indented deeper are its text.
	block int
	line  int
}

func (s *scanner) scan(data []byte) *Problem {
	s.block = -1
	for len(data) > 0 {
		s.line++
		var ln []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ln, data = data[:i], data[i+1:]
		} else {
			ln, data = data, nil
		}
		ln = bytes.TrimSuffix(ln, []byte{'\r'})
		if p := s.scanLine(ln); p != nil {
			return p
		}
	}
	return nil
}

func indentOf(ln []byte) int {
	i := 0
	for i < len(ln) && ln[i] == ' ' {
		i++
	}
	return i
}

func (s *scanner) deep(col int) *Problem {
	if len(s.stack)+s.flow <= MaxDepth {
		return nil
	}
	return &Problem{Line: s.line, Column: col + 1, Err: ErrTooDeep,
		Msg: fmt.Sprintf("nested more than %d levels deep, the ceiling for a YAML file", MaxDepth)}
}

func (s *scanner) scanLine(ln []byte) *Problem {
	ind := indentOf(ln)
	if s.block >= 0 {
		if ind == len(bytes.TrimRight(ln, " \t")) || ind > s.block {
			return nil // a blank line or the block scalar's text
		}
		s.block = -1
	}
	if s.quote != 0 || s.flow > 0 {
		return s.inline(ln, 0)
	}
	rest := ln[ind:]
	if len(rest) == 0 || rest[0] == '#' || rest[0] == '\t' && len(bytes.TrimSpace(rest)) == 0 {
		return nil
	}
	if ind == 0 && (rest[0] == '%' || bytes.HasPrefix(rest, []byte("---")) || bytes.HasPrefix(rest, []byte("..."))) {
		s.stack = s.stack[:0] // a directive or a document marker
		return nil
	}
	for len(s.stack) > 0 && s.stack[len(s.stack)-1].col > ind {
		s.stack = s.stack[:len(s.stack)-1]
	}
	if len(s.stack) == 0 || s.stack[len(s.stack)-1].col < ind {
		s.stack = append(s.stack, level{col: ind})
		if p := s.deep(ind); p != nil {
			return p
		}
	}
	i := ind
	// "- - x" and "? x": every entry indicator opens a node one deeper.
	for i < len(ln) && (ln[i] == '-' || ln[i] == '?') && (i+1 == len(ln) || ln[i+1] == ' ') {
		i += 2
		for i < len(ln) && ln[i] == ' ' {
			i++
		}
		s.stack = append(s.stack, level{col: i})
		if p := s.deep(i); p != nil {
			return p
		}
	}
	if i >= len(ln) {
		return nil
	}
	if colon := keyEnd(ln, i); colon >= 0 {
		top := &s.stack[len(s.stack)-1]
		top.keys++
		if top.keys > MaxKeys {
			return &Problem{Line: s.line, Column: i + 1, Err: ErrTooManyKeys,
				Msg: fmt.Sprintf("a mapping with more than %d keys, the ceiling for a YAML file", MaxKeys)}
		}
		i = colon + 1
	}
	return s.value(ln, i, ind)
}

// keyEnd is the index of the colon that ends a key starting at i, or -1
// when the line holds no key there.
func keyEnd(ln []byte, i int) int {
	if ln[i] == '"' || ln[i] == '\'' {
		end := closeQuote(ln, i+1, ln[i])
		if end < 0 {
			return -1
		}
		j := end + 1
		for j < len(ln) && ln[j] == ' ' {
			j++
		}
		if j < len(ln) && ln[j] == ':' && (j+1 == len(ln) || ln[j+1] == ' ') {
			return j
		}
		return -1
	}
	if ln[i] == '[' || ln[i] == '{' {
		return -1
	}
	for j := i; j < len(ln); j++ {
		switch {
		case ln[j] == '#' && j > i && ln[j-1] == ' ':
			return -1
		case ln[j] == ':' && (j+1 == len(ln) || ln[j+1] == ' ' || ln[j+1] == '\t'):
			return j
		}
	}
	return -1
}

// closeQuote is the index of the quote closing a string opened before
// from, or -1 when it does not close on this line.
func closeQuote(ln []byte, from int, q byte) int {
	for j := from; j < len(ln); j++ {
		switch {
		case q == '"' && ln[j] == '\\':
			j++
		case ln[j] == q && q == '\'' && j+1 < len(ln) && ln[j+1] == '\'':
			j++
		case ln[j] == q:
			return j
		}
	}
	return -1
}

// value reads the start of a block value at i: a flow collection, a
// quoted string or a block scalar header; anchors and tags before it
// are skipped.
func (s *scanner) value(ln []byte, i, ind int) *Problem {
	for {
		for i < len(ln) && (ln[i] == ' ' || ln[i] == '\t') {
			i++
		}
		if i < len(ln) && (ln[i] == '&' || ln[i] == '!') {
			for i < len(ln) && ln[i] != ' ' {
				i++
			}
			continue
		}
		break
	}
	if i >= len(ln) {
		return nil
	}
	switch ln[i] {
	case '[', '{', '"', '\'':
		return s.inline(ln, i)
	case '|', '>':
		s.block = ind
	}
	return nil
}

// inline reads flow brackets and quoted strings from i to the end of the
// line, carrying what is still open to the next line.
func (s *scanner) inline(ln []byte, i int) *Problem {
	for ; i < len(ln); i++ {
		c := ln[i]
		if s.quote != 0 {
			end := closeQuote(ln, i, s.quote)
			if end < 0 {
				return nil
			}
			s.quote, i = 0, end
			continue
		}
		switch c {
		case '"', '\'':
			if i == 0 || bytes.IndexByte([]byte(" \t[{,:"), ln[i-1]) >= 0 {
				s.quote = c
			}
		case '#':
			if i == 0 || ln[i-1] == ' ' || ln[i-1] == '\t' {
				return nil
			}
		case '[', '{':
			s.flow++
			if p := s.deep(i); p != nil {
				return p
			}
		case ']', '}':
			if s.flow > 0 {
				s.flow--
			}
			if s.flow == 0 {
				return nil // the rest of the line is after the collection
			}
		}
	}
	return nil
}
