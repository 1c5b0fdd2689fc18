package jsonscan

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Scanner walks one JSON value in place, without copying it, and checks
// its syntax as it goes (valid.go): strings are measured, not decoded, and
// a path of the keys and indices it is inside names a field that has the
// wrong type. The first syntax error it meets sets Bad and moves it to the
// end of the input, where it sees zero bytes, so every loop of a walker
// ends; a walker that returns with Bad set has read a body that is not
// JSON. It never panics on a truncated value. The zero Scanner scans an
// empty input; Reset gives it one.
type Scanner struct {
	b     []byte
	i     int
	path  [MaxDepth]pathSeg
	depth int
	// stack holds the closing byte of every object and array the scanner
	// is inside; first is set between entering one and reading its first
	// member.
	stack []byte
	first bool
	bad   bool
	// escaped is whether the last string Str read held an escape.
	escaped bool
}

// MaxDepth bounds the path a Scanner keeps: "messages.0.content.1.content.2.text"
// is the deepest field a request decoder names.
const MaxDepth = 8

type pathSeg struct {
	key string // "" for an index
	idx int
}

// New returns a Scanner at the start of b.
func New(b []byte) *Scanner {
	s := &Scanner{}
	s.Reset(b)
	return s
}

// Reset makes s scan b from its start, keeping the stack it has grown.
func (s *Scanner) Reset(b []byte) {
	stack := s.stack[:0]
	if stack == nil {
		stack = make([]byte, 0, 16)
	}
	*s = Scanner{b: b, stack: stack}
}

// Bytes is the input being scanned.
func (s *Scanner) Bytes() []byte { return s.b }

// Pos is the offset of the next byte to read.
func (s *Scanner) Pos() int { return s.i }

// Seek moves to offset i, which Pos returned while reading the value the
// scanner is in (a walker that peeked at a literal reads it again, a memo
// skips a message it has read before).
func (s *Scanner) Seek(i int) { s.i = i }

// Bad reports whether the scanner met a syntax error.
func (s *Scanner) Bad() bool { return s.bad }

// Escaped reports whether the last string Str read held an escape.
func (s *Scanner) Escaped() bool { return s.escaped }

// Push enters object member key in the path; Pop leaves it.
func (s *Scanner) Push(key string) { s.pushSeg(pathSeg{key: key}) }

// PushIdx enters array element i in the path.
func (s *Scanner) PushIdx(i int) { s.pushSeg(pathSeg{idx: i}) }

func (s *Scanner) pushSeg(p pathSeg) {
	if s.depth < MaxDepth {
		s.path[s.depth] = p
	}
	s.depth++
}

// Pop leaves the innermost key or index of the path.
func (s *Scanner) Pop() { s.depth-- }

// Path names the field the scanner is in: keys and indices joined by
// dots ("messages.0.content"), as deep as MaxDepth.
func (s *Scanner) Path() string {
	var b strings.Builder
	for i := 0; i < s.depth && i < MaxDepth; i++ {
		if i > 0 {
			b.WriteByte('.')
		}
		if p := s.path[i]; p.key != "" {
			b.WriteString(p.key)
		} else {
			b.WriteString(strconv.Itoa(p.idx))
		}
	}
	return b.String()
}

// Peek skips white space and returns the next byte (0 at the end).
func (s *Scanner) Peek() byte {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return c
		}
	}
	return 0
}

// IsNull consumes a null if one is next.
func (s *Scanner) IsNull() bool {
	if s.Peek() == 'n' {
		s.Literal()
		return true
	}
	return false
}

// Enter consumes the opening byte of an object or array (the caller has
// peeked it).
func (s *Scanner) Enter() {
	closer := byte(']')
	if s.b[s.i] == '{' {
		closer = '}'
	}
	s.stack = append(s.stack, closer)
	s.i++
	s.first = true
	if len(s.stack) > MaxNesting {
		s.Fault()
	}
}

// More reports whether the object or array being walked has another
// member, consuming the comma before it or the closing byte after the last.
// Anything else there is a syntax error.
func (s *Scanner) More() bool {
	if len(s.stack) == 0 {
		s.Fault()
		return false
	}
	c := s.Peek()
	first := s.first
	s.first = false
	switch top := s.stack[len(s.stack)-1]; {
	case c == top:
		s.i++
		s.stack = s.stack[:len(s.stack)-1]
		return false
	case first && c != ',' && c != 0:
		return true
	case !first && c == ',':
		s.i++
		return true
	}
	s.Fault()
	return false
}

// Key reads an object key and the colon after it and returns the key's
// bytes, for a switch on string(key) that does not allocate. A key written
// with escapes is decoded (rare, so the copy is fine).
func (s *Scanner) Key() []byte {
	if s.Peek() != '"' {
		s.Fault()
		return nil
	}
	raw, _ := s.Str()
	if s.Peek() != ':' {
		s.Fault()
		return raw
	}
	s.i++
	if s.escaped {
		return []byte(Unquote(raw))
	}
	return raw
}

// shortString is how many bytes Str reads one at a time.
const shortString = 32

// asciiPlain marks the bytes a string holds as they are and that
// decode to themselves: printable ASCII but the quote and the backslash.
var asciiPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Str consumes a string (s.b[s.i] is its opening quote) and returns its raw
// bytes between the quotes and the length in bytes of the Go string
// encoding/json would decode it to: escapes decoded, invalid UTF-8 and lone
// surrogates replaced by U+FFFD, exactly as json.Unmarshal does.
// A string that is not terminated, holds a control byte or a malformed
// escape is a syntax error.
func (s *Scanner) Str() (raw []byte, n int) {
	start := s.i + 1
	s.escaped = false
	// Most strings (keys, roles, ids) are short and plain ASCII: read
	// them a byte at a time before anything costlier.
	i := start
	for end := min(len(s.b), start+shortString); i < end && asciiPlain[s.b[i]]; i++ {
	}
	if i < len(s.b) && s.b[i] == '"' {
		s.i = i + 1
		return s.b[start:i], i - start
	}
	n = i - start
	for {
		j := i + plain(s.b[i:])
		n += decodedLen(s.b[i:j])
		if j == len(s.b) {
			s.Fault()
			return s.b[start:j], n
		}
		switch s.b[j] {
		case '"':
			s.i = j + 1
			return s.b[start:j], n
		case '\\':
			size, width, ok := escapeLen(s.b[j:])
			if !ok {
				s.Fault()
				return s.b[start:j], n
			}
			s.escaped = true
			n += width
			i = j + size
		default:
			s.Fault()
			return s.b[start:j], n
		}
	}
}

// decodedLen is the length of plain (escape-free) string bytes once
// decoded: each invalid UTF-8 byte becomes U+FFFD, three bytes.
func decodedLen(b []byte) int {
	if utf8.Valid(b) {
		return len(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			n += utf8.RuneLen(utf8.RuneError)
		} else {
			n += size
		}
		b = b[size:]
	}
	return n
}

// escapeLen reads the escape at the start of b (b[0] is the backslash) and
// returns how many bytes it spans and how many it decodes to; ok is false
// for an escape JSON does not have.
func escapeLen(b []byte) (size, width int, ok bool) {
	if len(b) < 2 {
		return len(b), 0, false
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, 1, true
	case 'u':
	default:
		return 2, 1, false
	}
	r := hex4(b[2:])
	if r < 0 {
		return 2, 1, false
	}
	if utf16.IsSurrogate(r) {
		if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if dec := utf16.DecodeRune(r, hex4(b[8:])); dec != utf8.RuneError {
				return 12, utf8.RuneLen(dec), true
			}
		}
		return 6, utf8.RuneLen(utf8.RuneError), true
	}
	return 6, utf8.RuneLen(r), true
}

// hex4 decodes four hex digits, or returns -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// Unquote decodes the raw bytes of a string.
func Unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	var out string
	_ = json.Unmarshal(quoted, &out) // a raw that is not a JSON string has set bad: its value is never used
	return out
}

// Integer reads a JSON number that must be an integer. ok is false for a
// fraction, an exponent or a value that does not fit an int32.
func Integer(b []byte) (n int, ok bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n > 1<<31-1 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// StringValue reads a string and returns its decoded bytes; ok is false
// (and the value skipped) when the value is not a string.
func (s *Scanner) StringValue() (b []byte, ok bool) {
	if s.Peek() != '"' {
		s.Skip()
		return nil, false
	}
	raw, _ := s.Str()
	if s.escaped {
		return []byte(Unquote(raw)), true
	}
	return raw, true
}

// RawString consumes a string (s stands at its opening quote) without
// measuring it, and returns its raw bytes between the quotes: empty
// exactly when the string is.
func (s *Scanner) RawString() []byte {
	start := s.i
	s.SkipString()
	if s.i-1 <= start {
		return nil
	}
	return s.b[start+1 : s.i-1]
}
