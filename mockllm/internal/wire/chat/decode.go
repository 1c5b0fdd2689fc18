package chat

import (
	"bytes"
	"fmt"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openai"
)

// walk walks a chat completion request. It keeps nothing of the body but
// the model's name (and the last message when asked).
func walk(q *wire.Request, s *wire.Scanner) *wire.Error {
	if err := openai.Open(s); err != nil {
		return err
	}
	for s.More() {
		var err *wire.Error
		switch k := s.Key(); string(k) {
		case "model":
			err = openai.ReadModel(s, q)
		case "max_tokens", "max_completion_tokens":
			err = openai.ReadMaxTokens(s, q, string(k))
		case "stream":
			err = openai.ReadBool(s, "stream", &q.Stream)
		case "stream_options":
			err = readStreamOptions(q, s)
		case "messages":
			err = readMessages(q, s)
		case "tools":
			err = openai.ReadTools(s, q)
		case "service_tier":
			openai.ReadServiceTier(s, q)
		default:
			s.Skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func readStreamOptions(q *wire.Request, s *wire.Scanner) *wire.Error {
	if s.IsNull() {
		return nil
	}
	if s.Peek() != '{' {
		return openai.TypeError(s, "stream_options", "an object")
	}
	s.Enter()
	for s.More() {
		if string(s.Key()) != "include_usage" {
			s.Skip()
			continue
		}
		if err := openai.ReadBool(s, "stream_options.include_usage", &q.IncludeUsage); err != nil {
			return err
		}
	}
	q.StreamOptions = true
	return nil
}

func readMessages(q *wire.Request, s *wire.Scanner) *wire.Error {
	if s.Peek() != '[' {
		return openai.TypeError(s, "messages", "an array")
	}
	q.HasMessages = true
	q.Messages, q.SystemTokens, q.MessageTokens = 0, 0, 0 // the last of a repeated key wins
	s.Enter()
	s.StartMessages()
	q.Cache.Begin(wire.SegMessages)
	for i := 0; s.More(); i++ {
		s.LastStart, s.LastEnd = 0, 0
		m, ok := s.Reuse(i)
		if !ok {
			m.Start = s.Pos()
			var err *wire.Error
			if m.Tokens, m.System, err = readMessage(s, i); err != nil {
				return err
			}
			m.End, m.LastStart, m.LastEnd = s.Pos(), s.LastStart, s.LastEnd
			s.Note(m)
		}
		if q.Cache.On { // an exact prefix: the message as sent
			q.Cache.Add(wire.Hash(s.Bytes()[m.Start:m.End]), m.Tokens, true)
		}
		if m.System {
			q.SystemTokens += m.Tokens
		} else {
			q.MessageTokens += m.Tokens
		}
		q.Messages++
	}
	if q.KeepLast && s.LastEnd > s.LastStart {
		q.Last = bytes.Clone(s.Bytes()[s.LastStart:s.LastEnd])
	}
	return nil
}

// readMessage reads message i and returns its tokens and whether
// it is a system (or developer) message.
func readMessage(s *wire.Scanner, i int) (int, bool, *wire.Error) {
	if s.Peek() != '{' {
		return 0, false, openai.TypeError(s, fmt.Sprintf("messages[%d]", i), "an object")
	}
	s.Enter()
	var (
		role                []byte
		hasRole, hasContent bool
		content, calls      int // tokens; the last of a repeated key wins
	)
	for s.More() {
		var err *wire.Error
		switch k := s.Key(); string(k) {
		case "role":
			if s.Peek() != '"' {
				return 0, false, openai.TypeError(s, fmt.Sprintf("messages[%d].role", i), "a string")
			}
			role, _ = s.StringValue()
			hasRole = true
		case "content":
			hasContent = true
			s.Peek()
			start := s.Pos()
			content, err = readContent(s, i)
			s.LastStart, s.LastEnd = start, s.Pos()
		case "tool_calls":
			calls, err = readToolCalls(s, i)
		default:
			s.Skip()
		}
		if err != nil {
			return 0, false, err
		}
	}
	if !hasRole {
		return 0, false, openai.Missing(fmt.Sprintf("messages[%d].role", i))
	}
	var system bool
	switch string(role) {
	case "system", "developer":
		system = true
	case "user", "assistant", "tool", "function":
	default:
		return 0, false, openai.Param(fmt.Sprintf("messages[%d].role", i), "invalid_value", fmt.Sprintf(
			"Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", role))
	}
	if !hasContent && string(role) != "assistant" {
		return 0, false, openai.Missing(fmt.Sprintf("messages[%d].content", i))
	}
	return content + calls, system, nil
}

// readContent reads a message's content: a string, null, or a list of
// parts whose text and refusal parts count.
func readContent(s *wire.Scanner, i int) (int, *wire.Error) {
	return openai.Content(s, fmt.Sprintf("messages[%d].content", i), func(j int) (int, *wire.Error) { return readPart(s, i, j) })
}

// readPart reads part j of message i's content: an object with a type;
// a text part's text and a refusal part's refusal count.
func readPart(s *wire.Scanner, i, j int) (int, *wire.Error) {
	if s.Peek() != '{' {
		return 0, openai.TypeError(s, fmt.Sprintf("messages[%d].content[%d]", i, j), "an object")
	}
	s.Enter()
	var (
		typ           []byte
		hasType       bool
		textLen       int
		hasText       bool
		refusalLength int
	)
	for s.More() {
		switch k := s.Key(); string(k) {
		case "type":
			if s.Peek() != '"' {
				return 0, openai.TypeError(s, fmt.Sprintf("messages[%d].content[%d].type", i, j), "a string")
			}
			typ, _ = s.StringValue()
			hasType = true
		case "text":
			if s.Peek() != '"' {
				return 0, openai.TypeError(s, fmt.Sprintf("messages[%d].content[%d].text", i, j), "a string")
			}
			_, textLen = s.Str()
			hasText = true
		case "refusal":
			if s.Peek() == '"' {
				_, refusalLength = s.Str()
			} else {
				s.Skip()
			}
		default:
			s.Skip()
		}
	}
	switch {
	case !hasType:
		return 0, openai.Missing(fmt.Sprintf("messages[%d].content[%d].type", i, j))
	case string(typ) == "text" && !hasText:
		return 0, openai.Missing(fmt.Sprintf("messages[%d].content[%d].text", i, j))
	case string(typ) == "text":
		return wire.CountBytes(textLen), nil
	case string(typ) == "refusal":
		return wire.CountBytes(refusalLength), nil
	}
	return 0, nil
}

// readToolCalls reads an assistant message's tool calls; their arguments
// count.
func readToolCalls(s *wire.Scanner, i int) (int, *wire.Error) {
	if s.IsNull() {
		return 0, nil
	}
	if s.Peek() != '[' {
		return 0, openai.TypeError(s, fmt.Sprintf("messages[%d].tool_calls", i), "an array")
	}
	s.Enter()
	total := 0
	for j := 0; s.More(); j++ {
		if s.Peek() != '{' {
			return 0, openai.TypeError(s, fmt.Sprintf("messages[%d].tool_calls[%d]", i, j), "an object")
		}
		s.Enter()
		args := 0 // the last function's last arguments win
		for s.More() {
			if string(s.Key()) != "function" {
				s.Skip()
				continue
			}
			args = 0
			if s.Peek() != '{' {
				s.Skip()
				continue
			}
			s.Enter()
			for s.More() {
				if string(s.Key()) != "arguments" {
					s.Skip()
					continue
				}
				switch s.Peek() {
				case '"':
					_, n := s.Str()
					args = wire.CountBytes(n)
				case 'n':
					s.Literal()
					args = 0
				default:
					return 0, openai.TypeError(s, fmt.Sprintf("messages[%d].tool_calls[%d].function.arguments", i, j), "a string")
				}
			}
		}
		total += args
	}
	return total, nil
}

// validateChat checks the required parameters once the body is walked.
func validate(q *wire.Request) *wire.Error {
	switch {
	case !q.HasModel || q.Model == "":
		return wire.InvalidRequest("you must provide a model parameter")
	case !q.HasMessages:
		return openai.Missing("messages")
	case q.Messages == 0:
		return openai.Param("messages", "empty_array",
			"Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	case q.HasMaxTokens && q.MaxTokens < 1:
		return openai.Param(q.MaxTokensKey, "integer_below_min_value", fmt.Sprintf(
			"Invalid '%s': integer below minimum value. Expected a value >= 1, but got %d instead.", q.MaxTokensKey, q.MaxTokens))
	case q.StreamOptions && !q.Stream:
		return openai.Param("stream_options", "invalid_value",
			"The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	if !q.HasMaxTokens {
		q.MaxTokens, q.MaxTokensKey = 0, "max_tokens"
	}
	return nil
}
