package mockllm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/internal/tokens"
)

// maxBodyBytes is the largest request body the mock accepts, as the real
// API: 32 MB. A larger one is answered 413 request_too_large.
const maxBodyBytes = 32 << 20

// request is what the mock reads of a request body, on either wire. Texts
// are measured, not kept: only the model name is copied out of the body.
type request struct {
	model        string
	maxTokens    int // 0 when an OpenAI request sets none
	stream       bool
	includeUsage bool // OpenAI's stream_options.include_usage
	// streamOptions is whether an OpenAI request sent stream_options,
	// which only goes with stream.
	streamOptions bool
	maxTokensKey  string // the name OpenAI's output budget came under
	hasModel      bool
	hasMaxTokens  bool
	hasMessages   bool
	messages      int
	// systemTokens counts the system prompt (OpenAI: the system and
	// developer messages), messageTokens the rest.
	systemTokens  int
	messageTokens int
	// toolTokens counts the tool definitions (see tools.go).
	toolTokens int
	// countOnly is a count_tokens request, which has no max_tokens.
	countOnly bool
	// keepLast asks the decoder to keep the raw JSON content of the last
	// message in last (either wire): a scenario with a when.contains
	// rule reads it.
	keepLast bool
	last     []byte
	// mem is the session's memo (memo.go), nil when it keeps none; memo
	// is what decode learnt for the next body, when mem wants one.
	mem  *memory
	memo *bodyMemo
}

// lastContains reports whether the last message's content has text in
// one of its strings (a plain content string, a text block's text, a
// tool_result's content).
func (q *request) lastContains(text string) bool {
	if len(q.last) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(q.last, &v) != nil {
		return false
	}
	return anyContains(v, text)
}

func anyContains(v any, text string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, text)
	case []any:
		for _, e := range v {
			if anyContains(e, text) {
				return true
			}
		}
	case map[string]any:
		for _, k := range []string{"text", "content"} {
			if e, ok := v[k]; ok && anyContains(e, text) {
				return true
			}
		}
	}
	return false
}

// inputTokens is the request's input under the token rule: the sum over
// every text it carries, with no per-message overhead.
func (q *request) inputTokens() int { return q.systemTokens + q.messageTokens + q.toolTokens }

// countBytes is tokens.Count for a text of n bytes. The decoder measures
// texts without turning them into strings, so it needs the rule by length.
func countBytes(n int) int {
	return (n + tokens.BytesPerToken - 1) / tokens.BytesPerToken
}

// decodeBody reads the body of r into q and checks the fields the mock
// needs, answering in the words of the wire. The body, at most 32 MB, is
// read once into a pooled buffer, and the wire's walker reads the buffer
// in place in one pass, checking its syntax and measuring texts without
// making strings of them, so a 400 KB conversation is neither copied again
// nor kept.
func decodeBody(w http.ResponseWriter, r *http.Request, q *request, wr wire) *apiError {
	if r.ContentLength > maxBodyBytes {
		return errTooLarge(wr)
	}
	if r.Body == nil {
		return bodyError(wr, io.EOF)
	}
	mem := q.mem
	var buf *bytes.Buffer
	if mem != nil && mem.on {
		mem.inflight.Add(1)
		defer mem.inflight.Add(-1)
		buf = mem.spare.Swap(nil)
	}
	if buf == nil {
		buf = bodies.Get().(*bytes.Buffer)
	}
	defer func() {
		if q.memo != nil {
			q.memo.buf = buf // the memo keeps the buffer
			mem.keep(q.memo)
			return
		}
		if buf.Cap() <= maxPooledBody {
			buf.Reset()
			bodies.Put(buf)
		}
	}()
	buf.Reset()
	if r.ContentLength > 0 {
		buf.Grow(int(min(r.ContentLength, maxUpfrontGrow)))
	}
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, maxBodyBytes)); err != nil {
		return bodyError(wr, err)
	}
	return q.decode(buf.Bytes(), wr)
}

// decode reads a whole body in one pass: the wire's walker checks the
// syntax as it reads. Only a body that the walker refuses or finds unsound
// is read again, by encoding/json, so that a body that is not JSON gets the
// syntax error it always got, wherever in the body a field error came
// first.
func (q *request) decode(b []byte, wr wire) *apiError {
	if wr == responsesWire {
		return q.decodeResponses(b)
	}
	s := newScanner(b)
	if q.mem != nil && q.mem.on {
		s.memo, s.remember = q.mem.last.Load(), true
	}
	var err *apiError
	if wr == openaiWire {
		err = q.walkChat(s)
	} else if e := q.walk(s); e != nil {
		err = bodyError(wr, e)
	}
	if (err != nil || !s.End()) && !json.Valid(b) {
		*q = request{} // a body that could not be decoded tells the journal nothing
		return syntaxError(b, wr)
	}
	if err != nil {
		*q = request{}
		return err
	}
	if s.remember {
		q.memo = &bodyMemo{body: b, msgs: s.recs}
	}
	if wr == openaiWire {
		if err := q.validateChat(); err != nil {
			return err
		}
		return checkChat(b, q)
	}
	if err := q.validate(); err != nil {
		return err
	}
	return checkMessages(b, q)
}

// syntaxError is the answer to a body that is not JSON, worded from what
// encoding/json makes of it.
func syntaxError(b []byte, wr wire) *apiError {
	if wr == openaiWire {
		return openaiUnparsable()
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		if len(bytes.TrimSpace(b)) == 0 {
			return bodyError(wr, io.EOF)
		}
		return bodyError(wr, err)
	}
	return invalidRequest("invalid JSON in request body")
}

// bodies recycles request buffers; maxPooledBody keeps a rare huge body
// from pinning its buffer.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBody = 4 << 20

// maxUpfrontGrow is how much of a declared Content-Length decodeBody
// reserves before the bytes arrive: 64 KiB. Past that the buffer grows
// with what is read, so memory follows bytes received, not bytes promised
// (a client that declares 32 MB and sends one byte costs 64 KiB).
const maxUpfrontGrow = 64 << 10

// bodyError turns an error of reading or decoding the body into its answer.
func bodyError(wr wire, err error) *apiError {
	var (
		tooBig *http.MaxBytesError
		syntax *json.SyntaxError
		field  *fieldError
	)
	switch {
	case errors.As(err, &tooBig):
		return errTooLarge(wr)
	case wr.openai() && (err == io.EOF || err == io.ErrUnexpectedEOF || errors.As(err, &syntax)):
		return openaiUnparsable()
	case wr.openai():
		return invalidRequest("could not read request body: " + err.Error())
	case errors.As(err, &field):
		return invalidRequest(field.Error())
	case errors.As(err, &syntax):
		return invalidRequest(fmt.Sprintf("invalid JSON in request body: %s (at byte %d)", syntax, syntax.Offset))
	case err == io.EOF:
		return invalidRequest("invalid JSON in request body: the body is empty")
	case err == io.ErrUnexpectedEOF:
		return invalidRequest("invalid JSON in request body: unexpected end of input")
	}
	return invalidRequest("could not read request body: " + err.Error())
}

// validate checks the required fields once the body has been walked.
func (q *request) validate() *apiError {
	switch {
	case !q.hasModel:
		return invalidRequest("model: " + msgRequired)
	case q.model == "":
		return invalidRequest("model: String should have at least 1 character")
	case !q.hasMaxTokens && q.countOnly:
	case !q.hasMaxTokens:
		return invalidRequest("max_tokens: " + msgRequired)
	case q.maxTokens < 1:
		return invalidRequest("max_tokens: Input should be greater than or equal to 1")
	case !q.hasMessages:
		return invalidRequest("messages: " + msgRequired)
	}
	return nil
}

// walk walks a Messages request. It keeps nothing of the body but the
// model's name (and the last message when asked).
func (q *request) walk(s *scanner) *fieldError {
	if s.Peek() != '{' {
		return s.fail(msgDict)
	}
	s.Enter()
	for s.More() {
		var err *fieldError
		switch k := s.Key(); string(k) {
		case "model":
			err = q.readModel(s)
		case "max_tokens":
			err = q.readMaxTokens(s)
		case "stream":
			err = q.readStream(s)
		case "system":
			q.systemTokens, err = s.system()
		case "messages":
			q.messageTokens, err = s.messages()
			q.hasMessages = true
			if err == nil && q.keepLast && s.lastEnd > s.lastStart {
				q.last = bytes.Clone(s.Bytes()[s.lastStart:s.lastEnd])
			}
		default:
			s.Skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (q *request) readModel(s *scanner) *fieldError {
	if s.Peek() != '"' {
		return s.failKey("model", msgString)
	}
	raw, _ := s.Str()
	q.model, q.hasModel = jsonscan.Unquote(raw), true
	return nil
}

func (q *request) readMaxTokens(s *scanner) *fieldError {
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		return s.failKey("max_tokens", msgInteger)
	}
	n, ok := jsonscan.Integer(s.Literal())
	if !ok {
		return s.failKey("max_tokens", msgInteger)
	}
	q.maxTokens, q.hasMaxTokens = n, true
	return nil
}

func (q *request) readStream(s *scanner) *fieldError {
	switch s.Peek() {
	case 't':
		q.stream = true
	case 'f', 'n':
		q.stream = false
	default:
		return s.failKey("stream", msgBool)
	}
	s.Literal()
	return nil
}

// system reads the system prompt: absent, a string, or a list of text
// blocks.
func (s *scanner) system() (int, *fieldError) {
	s.Push("system")
	defer s.Pop()
	switch s.Peek() {
	case 'n':
		s.Literal()
		return 0, nil
	case '"':
		_, n := s.Str()
		return countBytes(n), nil
	case '[':
		return s.blocks(true)
	}
	return 0, s.fail(msgStrList)
}

// messages reads the list of messages and returns their tokens.
func (s *scanner) messages() (int, *fieldError) {
	s.Push("messages")
	defer s.Pop()
	if s.Peek() != '[' {
		return 0, s.fail(msgList)
	}
	s.Enter()
	s.recs = s.recs[:0] // the last of a repeated key wins
	total := 0
	for i := 0; s.More(); i++ {
		s.lastStart, s.lastEnd = 0, 0
		if m, ok := s.reuse(i); ok {
			total += m.tokens
			continue
		}
		start := s.Pos()
		s.PushIdx(i)
		n, err := s.message()
		s.Pop()
		if err != nil {
			return 0, err
		}
		s.note(memoMsg{start: start, end: s.Pos(), tokens: n, lastStart: s.lastStart, lastEnd: s.lastEnd})
		total += n
	}
	return total, nil
}

func (s *scanner) message() (int, *fieldError) {
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
			if !ok || (string(role) != "user" && string(role) != "assistant") {
				err = s.failKey("role", "Input should be 'user' or 'assistant'")
			}
		case "content":
			hasContent = true
			s.Push("content")
			s.Peek()
			start := s.Pos()
			n, err = s.content()
			s.lastStart, s.lastEnd = start, s.Pos()
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
