package wire

import (
	"bytes"
	"sync/atomic"
)

// A client resends its whole conversation with every request: a retry
// resends the same body, and each step of an agent turn the same messages
// and one or two more. A session the harness opens (the harness's,
// one per run, closed when the run ends) keeps what the decoder learnt of
// the messages of the last body it read, and the next body's decoder
// reuses each message that is byte for byte the same at the same offset,
// instead of walking it again. A message is a whole JSON value, so bytes
// checked once are sound wherever they stand; what the walker reads of it
// (tokens, whether it is the system prompt, where its content sits)
// depends on its bytes alone. The output is the same as walking: the
// decoder's tests run with and without a memo.
//
// Sessions made by a request (faultbench serve) keep no memo, so memory
// follows what a hostile client sends, not what it sent before.

// BodyMemo is what the decoder learnt of one body's messages. It is
// never changed once made.
type BodyMemo struct {
	Body []byte
	Msgs []MemoMsg
	Buf  *[]byte // Body's buffer
	// Fingerprint is Body's fingerprint as the mock's resend check makes
	// it: a body byte for byte the same has the same one.
	Fingerprint uint64
	// SystemRoles: the body was read with role "system" messages allowed
	// (Request.SystemRoles), so its messages stand for a body read without
	// them only once read again.
	SystemRoles bool
}

// MemoMsg is one message of a memo: where it sits in the body, and what
// walking it gave.
type MemoMsg struct {
	Start, End         int
	Tokens             int
	System             bool // OpenAI: a system or developer message
	LastStart, LastEnd int  // where its content sits
}

// Memory is a session's memo, when it keeps one, and the buffer of the
// memo before it, for the next body: a session reads each body into the
// buffer the last memo but one held, so a long agent turn allocates no
// new buffer per step.
type Memory struct {
	On       bool
	Last     atomic.Pointer[BodyMemo]
	Spare    atomic.Pointer[[]byte]
	Inflight atomic.Int32 // bodies of the session being read now
}

// Keep makes m the session's memo. The memo it replaces gives its buffer
// for the next body only when no other body of the session is being read
// (which could be reading that memo): a reader counts itself in before it
// loads the memo, and the count is read after the memo is replaced.
func (mem *Memory) Keep(m *BodyMemo) {
	old := mem.Last.Swap(m)
	if old != nil && mem.Inflight.Load() == 1 {
		mem.Spare.Store(old.Buf)
	}
}

// Reuse reads message i from the memo when its bytes are those the memo
// saw at the same offset, moving past it; ok is false (and the memo is
// dropped for the rest of the body) otherwise.
func (s *Scanner) Reuse(i int) (m MemoMsg, ok bool) {
	// Past the white space before the message, memo or not: the message
	// noted for the next body starts where its bytes do, so that a
	// pretty-printed body's messages are found again.
	s.Peek()
	if s.memo == nil {
		return m, false
	}
	if i >= len(s.memo.Msgs) {
		s.memo = nil
		return m, false
	}
	m = s.memo.Msgs[i]
	if m.Start != s.Pos() || m.End > len(s.Bytes()) || !bytes.Equal(s.Bytes()[m.Start:m.End], s.memo.Body[m.Start:m.End]) {
		s.memo = nil
		return m, false
	}
	s.Seek(m.End)
	s.LastStart, s.LastEnd = m.LastStart, m.LastEnd
	s.Note(m)
	return m, true
}

// Note records a message for the next body's memo.
func (s *Scanner) Note(m MemoMsg) {
	if s.remember {
		s.recs = append(s.recs, m)
	}
}
