package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The Messages API request: model, max_tokens, stream, system and
// messages, read in one pass (the walker) and then held to the
// conversation's rules (check.go). Field errors are worded as the real
// API words them: "max_tokens: Field required".

// Decode reads a Messages API body. Only a body that the walker refuses
// or finds unsound is read again, by encoding/json, so that a body that
// is not JSON gets the syntax error it always got, wherever in the body a
// field error came first.
func (Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	s := &walker{Scanner: wire.NewScanner(b), pre: &q.Cache, systemRoles: q.SystemRoles}
	if !q.Cache.On {
		// A reused message is not walked, and the cache needs its blocks.
		s.UseMemo(q)
	}
	var err *wire.Error
	e := walk(q, s)
	if s.badRole != nil { // it came before any error the walk stopped at
		e = s.badRole
	}
	if e != nil {
		err = bodyError(e)
	}
	if (err != nil || !s.End()) && !json.Valid(b) {
		*q = wire.Request{} // a body that could not be decoded tells the journal nothing
		return syntaxError(b)
	}
	if err != nil {
		if e == s.badRole && s.End() {
			// Walked to its end: the journal keeps what it measured.
			return err
		}
		*q = wire.Request{}
		return err
	}
	s.Learnt(q)
	if err := validate(q); err != nil {
		return err
	}
	if err := checkMarks(&q.Cache); err != nil {
		return err
	}
	q.Cache.Resolve()
	return checkMessages(b, q)
}

// syntaxError is the answer to a body that is not JSON, worded from what
// encoding/json makes of it.
func syntaxError(b []byte) *wire.Error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		if len(bytes.TrimSpace(b)) == 0 {
			return bodyError(io.EOF)
		}
		return bodyError(err)
	}
	return wire.InvalidRequest("invalid JSON in request body")
}

// BodyError words an error of reading or decoding the body.
func (Wire) BodyError(err error) *wire.Error { return bodyError(err) }

func bodyError(err error) *wire.Error {
	var (
		tooBig *http.MaxBytesError
		syntax *json.SyntaxError
		field  *fieldError
	)
	switch {
	case errors.As(err, &tooBig):
		return tooLarge()
	case errors.As(err, &field):
		return wire.InvalidRequest(field.Error())
	case errors.As(err, &syntax):
		return wire.InvalidRequest(fmt.Sprintf("invalid JSON in request body: %s (at byte %d)", syntax, syntax.Offset))
	case err == io.EOF:
		return wire.InvalidRequest("invalid JSON in request body: the body is empty")
	case err == io.ErrUnexpectedEOF:
		return wire.InvalidRequest("invalid JSON in request body: unexpected end of input")
	}
	return wire.InvalidRequest("could not read request body: " + err.Error())
}

// validate checks the required fields once the body has been walked.
func validate(q *wire.Request) *wire.Error {
	switch {
	case !q.HasModel:
		return wire.InvalidRequest("model: " + msgRequired)
	case q.Model == "":
		return wire.InvalidRequest("model: String should have at least 1 character")
	case !q.HasMaxTokens && !q.CountOnly: // count_tokens takes no max_tokens
		return wire.InvalidRequest("max_tokens: " + msgRequired)
	case q.HasMaxTokens && q.MaxTokens < 1:
		return wire.InvalidRequest("max_tokens: Input should be greater than or equal to 1")
	case !q.HasMessages:
		return wire.InvalidRequest("messages: " + msgRequired)
	}
	return nil
}

// walk walks a Messages request. It keeps nothing of the body but the
// model's name (and the last message when asked).
func walk(q *wire.Request, s *walker) *fieldError {
	if s.Peek() != '{' {
		return s.fail(msgDict)
	}
	s.Enter()
	for s.More() {
		var err *fieldError
		switch k := s.Key(); string(k) {
		case "model":
			err = readModel(q, s)
		case "max_tokens":
			err = readMaxTokens(q, s)
		case "stream":
			err = readStream(q, s)
		case "system":
			s.pre.Begin(wire.SegSystem)
			q.SystemTokens, err = s.system()
		case "messages":
			s.pre.Begin(wire.SegMessages)
			q.MessageTokens, err = s.messages()
			q.HasMessages = true
			if err == nil && q.KeepLast && s.LastEnd > s.LastStart {
				q.Last = bytes.Clone(s.Bytes()[s.LastStart:s.LastEnd])
			}
		case "tools":
			err = readTools(q, s)
		default:
			s.Skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readTools reads the tools, a list of objects (or null), whose
// definitions count in the input.
func readTools(q *wire.Request, s *walker) *fieldError {
	var bad *fieldError
	q.ToolTokens, _ = wire.ToolTokens(s.Scanner, &q.Cache, func(j int) *wire.Error {
		if j < 0 {
			bad = s.failKey("tools", msgList)
		} else {
			s.Push("tools")
			bad = s.failKey(strconv.Itoa(j), msgDict)
			s.Pop()
		}
		return wire.InvalidRequest(bad.Error())
	})
	return bad
}

func readModel(q *wire.Request, s *walker) *fieldError {
	if s.Peek() != '"' {
		return s.failKey("model", msgString)
	}
	raw, _ := s.Str()
	q.Model, q.HasModel = jsonscan.Unquote(raw), true
	return nil
}

func readMaxTokens(q *wire.Request, s *walker) *fieldError {
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		return s.failKey("max_tokens", msgInteger)
	}
	n, ok := jsonscan.Integer(s.Literal())
	if !ok {
		return s.failKey("max_tokens", msgInteger)
	}
	q.MaxTokens, q.HasMaxTokens = n, true
	return nil
}

func readStream(q *wire.Request, s *walker) *fieldError {
	switch s.Peek() {
	case 't':
		q.Stream = true
	case 'f', 'n':
		q.Stream = false
	default:
		return s.failKey("stream", msgBool)
	}
	s.Literal()
	return nil
}

// system reads the system prompt: absent, a string, or a list of text
// blocks.
func (s *walker) system() (int, *fieldError) {
	s.Push("system")
	defer s.Pop()
	switch s.Peek() {
	case 'n':
		s.Literal()
		return 0, nil
	case '"':
		raw, n := s.Str()
		s.pre.Add(wire.Hash(raw), wire.CountBytes(n), true)
		return wire.CountBytes(n), nil
	case '[':
		return s.blocks(true)
	}
	return 0, s.fail(msgStrList)
}

// messages reads the list of messages and returns their tokens.
func (s *walker) messages() (int, *fieldError) {
	s.Push("messages")
	defer s.Pop()
	if s.Peek() != '[' {
		return 0, s.fail(msgList)
	}
	s.Enter()
	s.StartMessages() // the last of a repeated key wins
	total := 0
	for i := 0; s.More(); i++ {
		s.LastStart, s.LastEnd = 0, 0
		if m, ok := s.Reuse(i); ok {
			total += m.Tokens
			continue
		}
		start := s.Pos()
		s.PushIdx(i)
		n, err := s.message()
		s.Pop()
		if err != nil {
			return 0, err
		}
		s.Note(wire.MemoMsg{Start: start, End: s.Pos(), Tokens: n, LastStart: s.LastStart, LastEnd: s.LastEnd})
		total += n
	}
	return total, nil
}

func (s *walker) message() (int, *fieldError) {
	if s.Peek() != '{' {
		return 0, s.fail(msgDict)
	}
	s.Enter()
	var (
		hasRole, hasContent bool
		n                   int
	)
	for s.More() {
		var err *fieldError
		switch k := s.Key(); string(k) {
		case "role":
			hasRole = true
			role, ok := s.StringValue()
			s.pre.Add(wire.Hash(role), 0, false)
			switch {
			case ok && s.systemRoles && string(role) == "system":
				// Claude Code's per-turn control: a system message among
				// the turns, under the PerTurnControl beta.
			case !ok || (string(role) != "user" && string(role) != "assistant"):
				if s.badRole == nil {
					s.badRole = s.failKey("role", "Input should be 'user' or 'assistant'")
				}
			}
		case "content":
			hasContent = true
			s.Push("content")
			s.Peek()
			start := s.Pos()
			n, err = s.content()
			s.LastStart, s.LastEnd = start, s.Pos()
			s.Pop()
		default:
			s.Skip()
		}
		if err != nil {
			return 0, err
		}
	}
	if !hasRole {
		return 0, s.failKey("role", msgRequired)
	}
	if !hasContent {
		return 0, s.failKey("content", msgRequired)
	}
	return n, nil
}
