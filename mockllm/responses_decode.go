package mockllm

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/faultbench/faultbench/internal/jsonscan"
)

// The Responses API request: model, input (a string, or a list of items:
// messages with string or part content, function_call and
// function_call_output), instructions (the system prompt),
// max_output_tokens, stream and tools. Every text counts by the token rule
// as on the other wires: message texts, instructions, function call
// arguments and outputs, and the tool definitions. Errors are worded as
// OpenAI words them.

// minOutputTokens is the smallest max_output_tokens the Responses API
// takes.
const minOutputTokens = 16

// decodeResponses reads and checks a Responses API body.
func (q *request) decodeResponses(b []byte) *apiError {
	if !json.Valid(b) {
		return openaiUnparsable()
	}
	s := newScanner(b)
	if s.Peek() != '{' {
		return openaiParam("", "invalid_type", fmt.Sprintf("Invalid type for body: expected an object, but got %s instead.", jsonKind(s)))
	}
	q.maxTokensKey = "max_output_tokens"
	hasInput := false
	var err *apiError
	s.Enter()
	for s.More() && err == nil {
		switch k := s.Key(); string(k) {
		case "model":
			if s.Peek() != '"' {
				return openaiType(s, "model", "a string")
			}
			raw, _ := s.Str()
			q.model, q.hasModel = jsonscan.Unquote(raw), true
		case "instructions":
			switch s.Peek() {
			case '"':
				_, n := s.Str()
				q.systemTokens = countBytes(n)
			case 'n':
				s.Literal()
			default:
				return openaiType(s, "instructions", "a string")
			}
		case "input":
			hasInput = true
			err = q.readInput(s)
		case "max_output_tokens":
			err = q.readChatMaxTokens(s, "max_output_tokens")
		case "stream":
			switch s.Peek() {
			case 't':
				q.stream = true
			case 'f', 'n':
				q.stream = false
			default:
				return openaiType(s, "stream", "a boolean")
			}
			s.Literal()
		case "tools":
			q.toolTokens = toolTokens(s)
		default:
			s.Skip()
		}
	}
	switch {
	case err != nil:
		*q = request{}
		return err
	case !q.hasModel || q.model == "":
		return openaiMissing("model")
	case !hasInput:
		return openaiMissing("input")
	case q.hasMaxTokens && q.maxTokens < minOutputTokens:
		return openaiParam("max_output_tokens", "integer_below_min_value", fmt.Sprintf(
			"Invalid 'max_output_tokens': integer below minimum value. Expected a value >= %d, but got %d instead.", minOutputTokens, q.maxTokens))
	}
	q.hasMessages = true
	return nil
}

// readInput reads input: a string (one user message), or a list of items.
// A function_call_output must answer a function_call before it, and every
// function_call must be answered, as the real API requires.
func (q *request) readInput(s *scanner) *apiError {
	switch s.Peek() {
	case '"':
		start := s.Pos()
		_, n := s.Str()
		q.messageTokens += countBytes(n)
		if q.keepLast {
			q.last = bytes.Clone(s.Bytes()[start:s.Pos()])
		}
		return nil
	case '[':
	default:
		return openaiType(s, "input", "one of a string or array of objects")
	}
	s.Enter()
	var calls []string // function calls not answered yet
	for i := 0; s.More(); i++ {
		it, err := readItem(s, i)
		if err != nil {
			return err
		}
		switch {
		case it.typ == "function_call":
			calls = append(calls, it.callID)
		case it.typ == "function_call_output":
			k := indexOf(calls, it.callID)
			if k < 0 {
				return openaiParam("input", "", "No tool call found for function call output with call_id "+it.callID+".")
			}
			calls = append(calls[:k], calls[k+1:]...)
		case len(calls) > 0:
			return openaiParam("input", "", "No tool output found for function call "+calls[0]+".")
		}
		if it.system {
			q.systemTokens += it.tokens
		} else {
			q.messageTokens += it.tokens
		}
		q.messages++
		if q.keepLast && it.contentEnd > it.contentStart {
			q.last = bytes.Clone(s.Bytes()[it.contentStart:it.contentEnd])
		}
	}
	if len(calls) > 0 {
		return openaiParam("input", "", "No tool output found for function call "+calls[0]+".")
	}
	return nil
}

// item is what the decoder keeps of one input item.
type item struct {
	typ, callID              string
	system                   bool
	tokens                   int
	contentStart, contentEnd int
}

// readItem reads input item i: its type (a message when it has none), its
// role, and the texts that count.
func readItem(s *scanner, i int) (item, *apiError) {
	var it item
	if s.Peek() != '{' {
		return it, openaiType(s, fmt.Sprintf("input[%d]", i), "an object")
	}
	s.Enter()
	for s.More() {
		switch string(s.Key()) {
		case "type":
			v, _ := s.StringValue()
			it.typ = string(v)
		case "role":
			v, _ := s.StringValue()
			it.system = string(v) == "system" || string(v) == "developer"
		case "call_id":
			v, _ := s.StringValue()
			it.callID = string(v)
		case "content", "output":
			s.Peek()
			it.contentStart = s.Pos()
			n, err := readParts(s, i)
			if err != nil {
				return it, err
			}
			it.tokens += n
			it.contentEnd = s.Pos()
		case "arguments":
			if s.Peek() == '"' {
				_, n := s.Str()
				it.tokens += countBytes(n)
			} else {
				s.Skip()
			}
		default:
			s.Skip()
		}
	}
	return it, nil
}

// readParts reads a message's content or a function call's output: a
// string, or a list of parts whose text counts.
func readParts(s *scanner, i int) (int, *apiError) {
	switch s.Peek() {
	case '"':
		_, n := s.Str()
		return countBytes(n), nil
	case 'n':
		s.Literal()
		return 0, nil
	case '[':
	default:
		return 0, openaiType(s, fmt.Sprintf("input[%d].content", i), "one of a string or array of objects")
	}
	s.Enter()
	total := 0
	for s.More() {
		if s.Peek() != '{' {
			s.Skip()
			continue
		}
		s.Enter()
		for s.More() {
			if string(s.Key()) == "text" && s.Peek() == '"' {
				_, n := s.Str()
				total += countBytes(n)
				continue
			}
			s.Skip()
		}
	}
	return total, nil
}
