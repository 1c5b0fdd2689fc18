package mockllm

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner walks one JSON value in place, without copying it, and checks
// its syntax as it goes (jsonvalid.go): strings are measured, not decoded,
// and a path of the keys and indices it is inside names a field that has
// the wrong type. The first syntax error it meets sets bad and moves it to
// the end of the input, where it sees zero bytes, so every loop of a walker
// ends; a walker that returns with bad set has read a body that is not
// JSON. It never panics on a truncated value.
type scanner struct {
	b     []byte
	i     int
	path  [maxDepth]pathSeg
	depth int
	// last is where the content of the last message read sits in b.
	lastStart, lastEnd int
	// stack holds the closing byte of every object and array the scanner
	// is inside; first is set between entering one and reading its first
	// member.
	stack []byte
	first bool
	bad   bool
	// escaped is whether the last string str read held an escape.
	escaped bool
	// memo is what the last body of the session held (memo.go), nil when
	// it keeps none or a message differed; with remember set, recs
	// gathers this body's messages for the next.
	memo     *bodyMemo
	remember bool
	recs     []memoMsg
}

// maxDepth bounds the path kept for messages: "messages.0.content.1.content.2.text"
// is the deepest field the request decoder looks at.
const maxDepth = 8

type pathSeg struct {
	key string // "" for an index
	idx int
}

// fieldError is a request field with the wrong type or a missing required
// one. Its text follows the real API: "max_tokens: Field required".
type fieldError struct {
	path string
	msg  string
}

func (e *fieldError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

// The messages of fieldError, worded as the real API words them.
const (
	msgRequired = "Field required"
	msgString   = "Input should be a valid string"
	msgInteger  = "Input should be a valid integer"
	msgBool     = "Input should be a valid boolean"
	msgList     = "Input should be a valid list"
	msgDict     = "Input should be a valid dictionary"
	msgStrList  = "Input should be a valid string or list"
)

func (s *scanner) push(key string) { s.pushSeg(pathSeg{key: key}) }
func (s *scanner) pushIdx(i int)   { s.pushSeg(pathSeg{idx: i}) }

func (s *scanner) pushSeg(p pathSeg) {
	if s.depth < maxDepth {
		s.path[s.depth] = p
	}
	s.depth++
}

func (s *scanner) pop() { s.depth-- }

// fail returns a fieldError naming the current path.
func (s *scanner) fail(msg string) *fieldError {
	var b strings.Builder
	for i := 0; i < s.depth && i < maxDepth; i++ {
		if i > 0 {
			b.WriteByte('.')
		}
		if p := s.path[i]; p.key != "" {
			b.WriteString(p.key)
		} else {
			b.WriteString(strconv.Itoa(p.idx))
		}
	}
	return &fieldError{path: b.String(), msg: msg}
}

// failKey is fail for a field of the current object that is not there.
func (s *scanner) failKey(key, msg string) *fieldError {
	s.push(key)
	defer s.pop()
	return s.fail(msg)
}

// peek skips white space and returns the next byte (0 at the end).
func (s *scanner) peek() byte {
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

// isNull consumes a null if one is next.
func (s *scanner) isNull() bool {
	if s.peek() == 'n' {
		s.literal()
		return true
	}
	return false
}

// enter consumes the opening byte of an object or array (the caller has
// peeked it).
func (s *scanner) enter() {
	closer := byte(']')
	if s.b[s.i] == '{' {
		closer = '}'
	}
	s.stack = append(s.stack, closer)
	s.i++
	s.first = true
	if len(s.stack) > maxNesting {
		s.fault()
	}
}

// more reports whether the object or array being walked has another
// member, consuming the comma before it or the closing byte after the last.
// Anything else there is a syntax error.
func (s *scanner) more() bool {
	if len(s.stack) == 0 {
		s.fault()
		return false
	}
	c := s.peek()
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
	s.fault()
	return false
}

// key reads an object key and the colon after it and returns the key's
// bytes, for a switch on string(key) that does not allocate. A key written
// with escapes is decoded (rare, so the copy is fine).
func (s *scanner) key() []byte {
	if s.peek() != '"' {
		s.fault()
		return nil
	}
	raw, _ := s.str()
	if s.peek() != ':' {
		s.fault()
		return raw
	}
	s.i++
	if s.escaped {
		return []byte(unquote(raw))
	}
	return raw
}

// shortString is how many bytes str reads one at a time.
const shortString = 32

// asciiPlain marks the bytes a string holds as they are and that
// decode to themselves: printable ASCII but the quote and the backslash.
var asciiPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str consumes a string (s.b[s.i] is its opening quote) and returns its raw
// bytes between the quotes and the length in bytes of the Go string
// encoding/json would decode it to: escapes decoded, invalid UTF-8 and lone
// surrogates replaced by U+FFFD, exactly as json.Unmarshal does.
// A string that is not terminated, holds a control byte or a malformed
// escape is a syntax error.
func (s *scanner) str() (raw []byte, n int) {
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
			s.fault()
			return s.b[start:j], n
		}
		switch s.b[j] {
		case '"':
			s.i = j + 1
			return s.b[start:j], n
		case '\\':
			size, width, ok := escapeLen(s.b[j:])
			if !ok {
				s.fault()
				return s.b[start:j], n
			}
			s.escaped = true
			n += width
			i = j + size
		default:
			s.fault()
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

// unquote decodes the raw bytes of a string.
func unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	var out string
	_ = json.Unmarshal(quoted, &out) // a raw that is not a JSON string has set bad: its value is never used
	return out
}

// integer reads a JSON number that must be an integer. ok is false for a
// fraction, an exponent or a value that does not fit an int32.
func integer(b []byte) (n int, ok bool) {
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
