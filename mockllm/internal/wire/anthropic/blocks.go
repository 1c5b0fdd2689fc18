package anthropic

import (
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// content reads a message's content, a string or a list of blocks, and
// returns its tokens.
func (s *walker) content() (int, *fieldError) {
	switch s.Peek() {
	case '"':
		raw, n := s.Str()
		if s.depth == 0 {
			s.pre.Add(wire.Hash(raw), wire.CountBytes(n), true)
		}
		return wire.CountBytes(n), nil
	case '[':
		return s.blocks(false)
	}
	return 0, s.fail(msgStrList)
}

// blocks reads a list of content blocks and returns their tokens. With
// onlyText (the system prompt) every block must be a text block.
func (s *walker) blocks(onlyText bool) (int, *fieldError) {
	s.Enter()
	s.depth++
	defer func() { s.depth-- }()
	total := 0
	for i := 0; s.More(); i++ {
		s.PushIdx(i)
		b, err := s.block()
		if err == nil && onlyText && b.typ != "text" {
			err = s.failKey("type", "Input should be 'text'")
		}
		s.Pop()
		if err != nil {
			return 0, err
		}
		total += b.tokens
		if s.depth == 1 {
			s.pre.Add(b.hash, b.tokens, true)
			if b.ttl > 0 {
				s.pre.Mark(b.ttl)
			}
		}
	}
	return total, nil
}

// block is what the decoder keeps of one content block.
type block struct {
	typ    string // "text", "tool_use", "tool_result", or "" for any other type
	tokens int
	hash   uint64        // of its fields but cache_control (prefix.go)
	ttl    time.Duration // its cache_control's lifetime; 0 when it has none
}

// blockFields gathers a block's fields in whatever order they come; the
// type may come last.
type blockFields struct {
	typ                               []byte
	hasType, hasText, hasInput        bool
	hasID, hasName, hasToolUseID      bool
	textBytes, inputBytes, resultToks int
	ttl                               time.Duration
}

// block reads one content block. Text blocks count their text, tool_use
// blocks the raw JSON of their input, tool_result blocks their content;
// any other type (image, document, thinking...) is accepted and counts 0.
func (s *walker) block() (block, *fieldError) {
	if s.Peek() != '{' {
		return block{}, s.fail(msgDict)
	}
	s.Enter()
	var f blockFields
	h := wire.NewHasher()
	for s.More() {
		var err *fieldError
		k := s.Key()
		s.Peek()
		at := s.Pos()
		switch string(k) {
		case "cache_control":
			f.ttl, err = s.cacheControl()
		case "type":
			var ok bool
			if f.typ, ok = s.StringValue(); !ok {
				err = s.failKey("type", msgString)
			}
			f.hasType = true
		case "text":
			f.textBytes, err = s.stringLen("text")
			f.hasText = true
		case "id":
			_, err = s.stringLen("id")
			f.hasID = true
		case "name":
			_, err = s.stringLen("name")
			f.hasName = true
		case "tool_use_id":
			_, err = s.stringLen("tool_use_id")
			f.hasToolUseID = true
		case "input":
			f.inputBytes, f.hasInput = 0, false // the last of a repeated key wins
			if !s.IsNull() {
				start := s.Pos()
				s.Skip()
				f.inputBytes, f.hasInput = s.Pos()-start, true
			}
		case "content":
			f.resultToks = 0
			if !s.IsNull() {
				s.Push("content")
				f.resultToks, err = s.content()
				s.Pop()
			}
		case "is_error":
			if c := s.Peek(); c != 't' && c != 'f' && c != 'n' {
				err = s.failKey("is_error", msgBool)
			}
			s.Literal()
		default:
			s.Skip()
		}
		if err != nil {
			return block{}, err
		}
		if s.pre.On && string(k) != "cache_control" {
			h.Field(k, s.Bytes()[at:s.Pos()])
		}
	}
	b, err := f.count(s)
	b.hash, b.ttl = h.Sum(), f.ttl
	return b, err
}

// count checks the fields a block's type requires and returns its tokens.
func (f *blockFields) count(s *walker) (block, *fieldError) {
	if !f.hasType {
		return block{}, s.failKey("type", msgRequired)
	}
	switch string(f.typ) {
	case "text":
		if !f.hasText {
			return block{}, s.failKey("text", msgRequired)
		}
		return block{typ: "text", tokens: wire.CountBytes(f.textBytes)}, nil
	case "tool_use":
		switch {
		case !f.hasID:
			return block{}, s.failKey("id", msgRequired)
		case !f.hasName:
			return block{}, s.failKey("name", msgRequired)
		case !f.hasInput:
			return block{}, s.failKey("input", msgRequired)
		}
		return block{typ: "tool_use", tokens: wire.CountBytes(f.inputBytes)}, nil
	case "tool_result":
		if !f.hasToolUseID {
			return block{}, s.failKey("tool_use_id", msgRequired)
		}
		return block{typ: "tool_result", tokens: f.resultToks}, nil
	}
	return block{}, nil
}

// stringLen reads the string at key and returns its decoded length.
func (s *walker) stringLen(key string) (int, *fieldError) {
	if s.Peek() != '"' {
		return 0, s.failKey(key, msgString)
	}
	_, n := s.Str()
	return n, nil
}
