package mockllm

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner walks one JSON value that encoding/json has already read and
// checked for syntax, without copying it: strings are measured, not
// decoded, and a path of the keys and indices it is inside names a field
// that has the wrong type. It never panics on a truncated value; past the
// end it sees zero bytes.
type scanner struct {
	b     []byte
	i     int
	path  [maxDepth]pathSeg
	depth int
	// last is where the content of the last message read sits in b.
	lastStart, lastEnd int
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

// enter consumes the opening byte of an object or array.
func (s *scanner) enter() { s.i++ }

// more reports whether the object or array being walked has another
// member, consuming the comma before it or the closing byte after the last.
func (s *scanner) more() bool {
	switch s.peek() {
	case ',':
		s.i++
		return true
	case '}', ']', 0:
		s.i++
		return false
	}
	return true
}

// key reads an object key and the colon after it and returns the key's
// bytes, for a switch on string(key) that does not allocate. A key written
// with escapes is decoded (rare, so the copy is fine).
func (s *scanner) key() []byte {
	s.peek()
	raw, _ := s.str()
	if s.peek() == ':' {
		s.i++
	}
	if bytes.IndexByte(raw, '\\') >= 0 {
		return []byte(unquote(raw))
	}
	return raw
}

// str consumes a string (s.b[s.i] is its opening quote) and returns its raw
// bytes between the quotes and the length in bytes of the Go string
// encoding/json would decode it to: escapes decoded, invalid UTF-8 and lone
// surrogates replaced by U+FFFD, exactly as json.Unmarshal does.
func (s *scanner) str() (raw []byte, n int) {
	start := s.i + 1
	i := start
	for i < len(s.b) {
		rest := s.b[i:]
		q := bytes.IndexByte(rest, '"')
		if q < 0 {
			q = len(rest)
		}
		bs := bytes.IndexByte(rest[:q], '\\')
		if bs < 0 {
			n += decodedLen(rest[:q])
			s.i = i + q + 1
			return s.b[start : i+q], n
		}
		n += decodedLen(rest[:bs])
		i += bs
		size, width := escapeLen(s.b[i:])
		n += width
		i += size
	}
	s.i = len(s.b)
	return s.b[start:], n
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
// returns how many bytes it spans and how many it decodes to.
func escapeLen(b []byte) (size, width int) {
	if len(b) < 2 {
		return len(b), 0
	}
	if b[1] != 'u' {
		return 2, 1
	}
	r := hex4(b[2:])
	if r < 0 {
		return 2, 1
	}
	if utf16.IsSurrogate(r) {
		if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if dec := utf16.DecodeRune(r, hex4(b[8:])); dec != utf8.RuneError {
				return 12, utf8.RuneLen(dec)
			}
		}
		return 6, utf8.RuneLen(utf8.RuneError)
	}
	return 6, utf8.RuneLen(r)
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
	_ = json.Unmarshal(quoted, &out) // raw came out of a checked value
	return out
}

// skip consumes any value.
func (s *scanner) skip() {
	switch s.peek() {
	case '"':
		s.skipString()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				s.skipString()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return
				}
			}
			s.i++
		}
	default:
		s.literal()
	}
}

// skipString consumes a string without measuring it.
func (s *scanner) skipString() {
	i := s.i + 1
	for {
		q := bytes.IndexByte(s.b[i:], '"')
		if q < 0 {
			s.i = len(s.b)
			return
		}
		i += q
		// The quote is escaped if an odd number of backslashes precede it.
		bs := 0
		for j := i - 1; j > s.i && s.b[j] == '\\'; j-- {
			bs++
		}
		i++
		if bs%2 == 0 {
			s.i = i
			return
		}
	}
}

// literal consumes a number, true, false or null and returns its bytes.
func (s *scanner) literal() []byte {
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return s.b[start:s.i]
		}
		s.i++
	}
	return s.b[start:s.i]
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
