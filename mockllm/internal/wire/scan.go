package wire

import "github.com/faultbench/faultbench/internal/jsonscan"

// Scanner is a jsonscan.Scanner as the request decoders walk it: with
// where the content of the last message read sits, and the session's memo
// of the last body (memo.go).
type Scanner struct {
	jsonscan.Scanner
	// LastStart and LastEnd are where the content of the last message
	// read sits in the body.
	LastStart, LastEnd int
	// memo is what the last body of the session held, nil when it keeps
	// none or a message differed; with remember set, recs gathers this
	// body's messages for the next.
	memo     *BodyMemo
	remember bool
	recs     []MemoMsg
}

// NewScanner is a Scanner at the start of b.
func NewScanner(b []byte) *Scanner {
	s := &Scanner{}
	s.Reset(b)
	return s
}

// UseMemo has s reuse the memo of q's session and gather one for the
// next body, when the session keeps one.
func (s *Scanner) UseMemo(q *Request) {
	if q.Mem != nil && q.Mem.On {
		s.memo, s.remember = q.Mem.Last.Load(), true
		if s.memo != nil && s.memo.SystemRoles && !q.SystemRoles {
			s.memo = nil // its system messages were taken under a beta this request lacks
		}
	}
}

// Learnt hands q what s gathered for the next body's memo (nothing when
// the session keeps none).
func (s *Scanner) Learnt(q *Request) {
	if s.remember {
		q.Memo = &BodyMemo{Body: s.Bytes(), Msgs: s.recs, SystemRoles: q.SystemRoles}
	}
}

// StartMessages forgets the messages noted so far: the last of a
// repeated messages key wins.
func (s *Scanner) StartMessages() { s.recs = s.recs[:0] }

// Clone is a copy of the body's bytes from start to end (nil when there
// are none).
func (s *Scanner) Clone(start, end int) []byte {
	if end <= start {
		return nil
	}
	return append([]byte(nil), s.Bytes()[start:end]...)
}
