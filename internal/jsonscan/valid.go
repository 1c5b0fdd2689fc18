package jsonscan

import "encoding/binary"

// The scanner checks JSON syntax in the same pass that reads a request, so
// a body is read once: what encoding/json's json.Valid refuses, the
// scanner marks bad. Only a body it marks bad, or one a walker refuses, is
// read a second time, by encoding/json, to word the error exactly as
// before.

// MaxNesting is encoding/json's limit on nested objects and arrays: a
// deeper value is not valid JSON to it, so not to the scanner either.
const MaxNesting = 10000

// Fault records a syntax error and moves the scanner to the end of its
// input, where every walker's loop ends.
func (s *Scanner) Fault() {
	s.bad = true
	s.i = len(s.b)
}

// Skip consumes any value, checking its syntax without measuring it.
func (s *Scanner) Skip() {
	base := len(s.stack)
	for {
		switch s.Peek() {
		case '"':
			s.SkipString()
		case '{', '[':
			s.Enter()
			if s.member() {
				continue // the first member's value
			}
		default:
			s.Literal()
		}
		// A value is done: close the containers it ended, or go on to the
		// next member of the innermost one.
		for {
			if s.bad || len(s.stack) <= base {
				return
			}
			if s.member() {
				break
			}
		}
	}
}

// member is More for a value being skipped: it also consumes an object
// member's key and colon, so the member's value is next.
func (s *Scanner) member() bool {
	if !s.More() {
		return false
	}
	if s.stack[len(s.stack)-1] == '}' {
		if s.Peek() != '"' {
			s.Fault()
			return false
		}
		s.SkipString()
		if s.Peek() != ':' {
			s.Fault()
			return false
		}
		s.i++
	}
	return true
}

// SkipString consumes a string (s.b[s.i] is its opening quote), checking
// its escapes and that it holds no control byte, without measuring it.
func (s *Scanner) SkipString() {
	i := s.i + 1
	for {
		j := i + plain(s.b[i:])
		if j == len(s.b) {
			s.Fault()
			return
		}
		switch s.b[j] {
		case '"':
			s.i = j + 1
			return
		case '\\':
			size, _, ok := escapeLen(s.b[j:])
			if !ok {
				s.Fault()
				return
			}
			i = j + size
		default:
			s.Fault()
			return
		}
	}
}

// The bytes plain looks for, in every byte of a word.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plain returns the length of the run of string bytes at the start of b
// that need no attention: up to the first quote, backslash or control
// byte (below 0x20), or len(b). It tests eight bytes at a time.
func plain(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q := x ^ (ones * '"')
		bs := x ^ (ones * '\\')
		// A byte of v is zero iff (v-1)&^v has its high bit; a byte of x
		// is below 0x20 iff (x-0x20)&^x has it.
		if ((q-ones)&^q|(bs-ones)&^bs|(x-ones*0x20)&^x)&highs != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// Literal consumes a number, true, false or null and returns its bytes;
// anything else up to the next delimiter is a syntax error.
func (s *Scanner) Literal() []byte {
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			tok := s.b[start:s.i]
			if !validLiteral(tok) {
				s.Fault()
			}
			return tok
		}
		s.i++
	}
	tok := s.b[start:s.i]
	if !validLiteral(tok) {
		s.Fault()
	}
	return tok
}

// validLiteral reports whether b is true, false, null or a JSON number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validLiteral(b []byte) bool {
	switch string(b) {
	case "true", "false", "null":
		return true
	}
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i == len(b):
		return false
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		if i++; i == len(b) || !isDigit(b[i]) {
			return false
		}
		i = digits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i == len(b) || !isDigit(b[i]) {
			return false
		}
		i = digits(b, i)
	}
	return i == len(b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits returns the index past the digits from i.
func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

// End reports whether only white space is left after the top-level value,
// and the value was sound.
func (s *Scanner) End() bool {
	s.Peek()
	return !s.bad && s.i == len(s.b)
}
