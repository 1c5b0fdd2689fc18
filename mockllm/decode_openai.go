package mockllm

import (
	"bytes"
	"fmt"

	"github.com/faultbench/faultbench/internal/jsonscan"
)

// The OpenAI Chat Completions request: model, max_tokens (or
// max_completion_tokens), stream, stream_options.include_usage and
// messages. Every text counts by the token rule: a message's content (a
// string, or its text and refusal parts), and the arguments of its tool
// calls; system and developer messages are the system prompt. Errors are
// worded as OpenAI words them, with the parameter at fault and a code.

// openaiUnparsable is OpenAI's answer to a body that is not JSON.
func openaiUnparsable() *apiError {
	return invalidRequest("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your " +
		"HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have " +
		"trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)")
}

// openaiParam is a 400 about one parameter.
func openaiParam(param, code, msg string) *apiError {
	e := invalidRequest(msg)
	e.param, e.code = param, code
	return e
}

func openaiMissing(param string) *apiError {
	return openaiParam(param, "missing_required_parameter", "Missing required parameter: '"+param+"'.")
}

// openaiType is a parameter of the wrong type; s stands at its value.
func openaiType(s *scanner, param, want string) *apiError {
	return openaiParam(param, "invalid_type",
		fmt.Sprintf("Invalid type for '%s': expected %s, but got %s instead.", param, want, jsonKind(s)))
}

// jsonKind names the kind of the value s stands at, as OpenAI's messages
// do, without consuming it.
func jsonKind(s *scanner) string {
	switch c := s.Peek(); {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	at := s.Pos()
	isInt := isInteger(s.Literal())
	s.Seek(at)
	if isInt {
		return "an integer"
	}
	return "a decimal number"
}

// isInteger reports whether a JSON number is an integer, whatever its size:
// an optional minus and digits only.
func isInteger(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("-"))
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// clipLiteral is at most 32 bytes of a number the client sent, to quote.
func clipLiteral(b []byte) string {
	if len(b) <= 32 {
		return string(b)
	}
	return string(b[:32]) + "…"
}

// walkChat walks a chat completion request. It keeps nothing of the body
// but the model's name (and the last message when asked).
func (q *request) walkChat(s *scanner) *apiError {
	if s.Peek() != '{' {
		return openaiParam("", "invalid_type", fmt.Sprintf("Invalid type for body: expected an object, but got %s instead.", jsonKind(s)))
	}
	s.Enter()
	for s.More() {
		var err *apiError
		switch k := s.Key(); string(k) {
		case "model":
			if s.Peek() != '"' {
				return openaiType(s, "model", "a string")
			}
			raw, _ := s.Str()
			q.model, q.hasModel = jsonscan.Unquote(raw), true
		case "max_tokens":
			err = q.readChatMaxTokens(s, "max_tokens")
		case "max_completion_tokens":
			err = q.readChatMaxTokens(s, "max_completion_tokens")
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
		case "stream_options":
			err = q.readStreamOptions(s)
		case "messages":
			err = q.readChatMessages(s)
		default:
			s.Skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (q *request) readChatMaxTokens(s *scanner, key string) *apiError {
	if s.IsNull() {
		return nil
	}
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		return openaiType(s, key, "an integer")
	}
	at := s.Pos()
	lit := s.Literal()
	n, ok := jsonscan.Integer(lit)
	if !ok {
		if isInteger(lit) {
			return openaiParam(key, "integer_above_max_value", fmt.Sprintf(
				"Invalid '%s': integer above maximum value. Expected a value <= %d, but got %s instead.", key, 1<<31-1, clipLiteral(lit)))
		}
		s.Seek(at)
		return openaiType(s, key, "an integer")
	}
	q.maxTokens, q.hasMaxTokens, q.maxTokensKey = n, true, key
	return nil
}

func (q *request) readStreamOptions(s *scanner) *apiError {
	if s.IsNull() {
		return nil
	}
	if s.Peek() != '{' {
		return openaiType(s, "stream_options", "an object")
	}
	s.Enter()
	for s.More() {
		if string(s.Key()) != "include_usage" {
			s.Skip()
			continue
		}
		switch s.Peek() {
		case 't':
			q.includeUsage = true
		case 'f', 'n':
			q.includeUsage = false
		default:
			return openaiType(s, "stream_options.include_usage", "a boolean")
		}
		s.Literal()
	}
	q.streamOptions = true
	return nil
}

func (q *request) readChatMessages(s *scanner) *apiError {
	if s.Peek() != '[' {
		return openaiType(s, "messages", "an array")
	}
	q.hasMessages = true
	q.messages, q.systemTokens, q.messageTokens = 0, 0, 0 // the last of a repeated key wins
	s.Enter()
	s.recs = s.recs[:0]
	for i := 0; s.More(); i++ {
		s.lastStart, s.lastEnd = 0, 0
		m, ok := s.reuse(i)
		if !ok {
			m.start = s.Pos()
			var err *apiError
			if m.tokens, m.system, err = readChatMessage(s, i); err != nil {
				return err
			}
			m.end, m.lastStart, m.lastEnd = s.Pos(), s.lastStart, s.lastEnd
			s.note(m)
		}
		if m.system {
			q.systemTokens += m.tokens
		} else {
			q.messageTokens += m.tokens
		}
		q.messages++
	}
	if q.keepLast && s.lastEnd > s.lastStart {
		q.last = bytes.Clone(s.Bytes()[s.lastStart:s.lastEnd])
	}
	return nil
}

// readChatMessage reads message i and returns its tokens and whether
// it is a system (or developer) message.
func readChatMessage(s *scanner, i int) (int, bool, *apiError) {
	if s.Peek() != '{' {
		return 0, false, openaiType(s, fmt.Sprintf("messages[%d]", i), "an object")
	}
	s.Enter()
	var (
		role                []byte
		hasRole, hasContent bool
		content, calls      int // tokens; the last of a repeated key wins
	)
	for s.More() {
		var err *apiError
		switch k := s.Key(); string(k) {
		case "role":
			if s.Peek() != '"' {
				return 0, false, openaiType(s, fmt.Sprintf("messages[%d].role", i), "a string")
			}
			role, _ = s.StringValue()
			hasRole = true
		case "content":
			hasContent = true
			s.Peek()
			start := s.Pos()
			content, err = readChatContent(s, i)
			s.lastStart, s.lastEnd = start, s.Pos()
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
		return 0, false, openaiMissing(fmt.Sprintf("messages[%d].role", i))
	}
	var system bool
	switch string(role) {
	case "system", "developer":
		system = true
	case "user", "assistant", "tool", "function":
	default:
		return 0, false, openaiParam(fmt.Sprintf("messages[%d].role", i), "invalid_value", fmt.Sprintf(
			"Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", role))
	}
	if !hasContent && string(role) != "assistant" {
		return 0, false, openaiMissing(fmt.Sprintf("messages[%d].content", i))
	}
	return content + calls, system, nil
}

// readChatContent reads a message's content: a string, null, or a list of
// parts whose text and refusal parts count.
func readChatContent(s *scanner, i int) (int, *apiError) {
	switch s.Peek() {
	case '"':
		_, n := s.Str()
		return countBytes(n), nil
	case 'n':
		s.Literal()
		return 0, nil
	case '[':
	default:
		return 0, openaiType(s, fmt.Sprintf("messages[%d].content", i), "one of a string or array of objects")
	}
	s.Enter()
	total := 0
	for j := 0; s.More(); j++ {
		if s.Peek() != '{' {
			return 0, openaiType(s, fmt.Sprintf("messages[%d].content[%d]", i, j), "an object")
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
					return 0, openaiType(s, fmt.Sprintf("messages[%d].content[%d].type", i, j), "a string")
				}
				typ, _ = s.StringValue()
				hasType = true
			case "text":
				if s.Peek() != '"' {
					return 0, openaiType(s, fmt.Sprintf("messages[%d].content[%d].text", i, j), "a string")
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
			return 0, openaiMissing(fmt.Sprintf("messages[%d].content[%d].type", i, j))
		case string(typ) == "text" && !hasText:
			return 0, openaiMissing(fmt.Sprintf("messages[%d].content[%d].text", i, j))
		case string(typ) == "text":
			total += countBytes(textLen)
		case string(typ) == "refusal":
			total += countBytes(refusalLength)
		}
	}
	return total, nil
}

// readToolCalls reads an assistant message's tool calls; their arguments
// count.
func readToolCalls(s *scanner, i int) (int, *apiError) {
	if s.IsNull() {
		return 0, nil
	}
	if s.Peek() != '[' {
		return 0, openaiType(s, fmt.Sprintf("messages[%d].tool_calls", i), "an array")
	}
	s.Enter()
	total := 0
	for j := 0; s.More(); j++ {
		if s.Peek() != '{' {
			return 0, openaiType(s, fmt.Sprintf("messages[%d].tool_calls[%d]", i, j), "an object")
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
					args = countBytes(n)
				case 'n':
					s.Literal()
					args = 0
				default:
					return 0, openaiType(s, fmt.Sprintf("messages[%d].tool_calls[%d].function.arguments", i, j), "a string")
				}
			}
		}
		total += args
	}
	return total, nil
}

// validateChat checks the required parameters once the body is walked.
func (q *request) validateChat() *apiError {
	switch {
	case !q.hasModel || q.model == "":
		return invalidRequest("you must provide a model parameter")
	case !q.hasMessages:
		return openaiMissing("messages")
	case q.messages == 0:
		return openaiParam("messages", "empty_array",
			"Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	case q.hasMaxTokens && q.maxTokens < 1:
		return openaiParam(q.maxTokensKey, "integer_below_min_value", fmt.Sprintf(
			"Invalid '%s': integer below minimum value. Expected a value >= 1, but got %d instead.", q.maxTokensKey, q.maxTokens))
	case q.streamOptions && !q.stream:
		return openaiParam("stream_options", "invalid_value",
			"The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	if !q.hasMaxTokens {
		q.maxTokens, q.maxTokensKey = 0, "max_tokens"
	}
	return nil
}
