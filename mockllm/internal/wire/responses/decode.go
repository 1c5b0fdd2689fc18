package responses

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openai"
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

// Decode reads and checks a Responses API body.
func (Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	if !json.Valid(b) {
		return openai.Unparsable()
	}
	s := wire.NewScanner(b)
	if err := openai.Open(s); err != nil {
		return err
	}
	q.MaxTokensKey = "max_output_tokens"
	hasInput := false
	var err *wire.Error
	for s.More() && err == nil {
		switch k := s.Key(); string(k) {
		case "model":
			if err := openai.ReadModel(s, q); err != nil {
				return err
			}
		case "instructions":
			switch s.Peek() {
			case '"':
				_, n := s.Str()
				q.SystemTokens = wire.CountBytes(n)
			case 'n':
				s.Literal()
			default:
				return openai.TypeError(s, "instructions", "a string")
			}
		case "input":
			hasInput = true
			err = readInput(q, s)
		case "max_output_tokens":
			err = openai.ReadMaxTokens(s, q, "max_output_tokens")
		case "stream":
			if err := openai.ReadBool(s, "stream", &q.Stream); err != nil {
				return err
			}
		case "tools":
			q.ToolTokens = wire.ToolTokens(s)
		default:
			s.Skip()
		}
	}
	switch {
	case err != nil:
		*q = wire.Request{}
		return err
	case !q.HasModel || q.Model == "":
		return openai.Missing("model")
	case !hasInput:
		return openai.Missing("input")
	case q.HasMaxTokens && q.MaxTokens < minOutputTokens:
		return openai.Param("max_output_tokens", "integer_below_min_value", fmt.Sprintf(
			"Invalid 'max_output_tokens': integer below minimum value. Expected a value >= %d, but got %d instead.", minOutputTokens, q.MaxTokens))
	}
	q.HasMessages = true
	return nil
}

// readInput reads input: a string (one user message), or a list of items.
// A function_call_output must answer a function_call before it, and every
// function_call must be answered, as the real API requires.
func readInput(q *wire.Request, s *wire.Scanner) *wire.Error {
	switch s.Peek() {
	case '"':
		start := s.Pos()
		_, n := s.Str()
		q.MessageTokens += wire.CountBytes(n)
		if q.KeepLast {
			q.Last = bytes.Clone(s.Bytes()[start:s.Pos()])
		}
		return nil
	case '[':
	default:
		return openai.TypeError(s, "input", "one of a string or array of objects")
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
				return openai.Param("input", "", "No tool call found for function call output with call_id "+it.callID+".")
			}
			calls = append(calls[:k], calls[k+1:]...)
		case len(calls) > 0:
			return openai.Param("input", "", "No tool output found for function call "+calls[0]+".")
		}
		if it.system {
			q.SystemTokens += it.tokens
		} else {
			q.MessageTokens += it.tokens
		}
		q.Messages++
		if q.KeepLast && it.contentEnd > it.contentStart {
			q.Last = bytes.Clone(s.Bytes()[it.contentStart:it.contentEnd])
		}
	}
	if len(calls) > 0 {
		return openai.Param("input", "", "No tool output found for function call "+calls[0]+".")
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
func readItem(s *wire.Scanner, i int) (item, *wire.Error) {
	var it item
	if s.Peek() != '{' {
		return it, openai.TypeError(s, fmt.Sprintf("input[%d]", i), "an object")
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
				it.tokens += wire.CountBytes(n)
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
func readParts(s *wire.Scanner, i int) (int, *wire.Error) {
	return openai.Content(s, fmt.Sprintf("input[%d].content", i), func(int) (int, *wire.Error) { return readPart(s), nil })
}

// readPart reads one part of a content list: its text counts, whatever
// its type (input_text, output_text).
func readPart(s *wire.Scanner) int {
	if s.Peek() != '{' {
		s.Skip()
		return 0
	}
	s.Enter()
	total := 0
	for s.More() {
		if string(s.Key()) == "text" && s.Peek() == '"' {
			_, n := s.Str()
			total += wire.CountBytes(n)
			continue
		}
		s.Skip()
	}
	return total
}

func indexOf(ids []string, id string) int {
	for k, x := range ids {
		if x == id {
			return k
		}
	}
	return -1
}
