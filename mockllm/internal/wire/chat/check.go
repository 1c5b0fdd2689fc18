package chat

import (
	"fmt"
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openai"
)

// check applies Chat Completions' rules to the messages of a body its
// walker has accepted, in OpenAI's words:
//
//   - a tool message has a tool_call_id ("Missing required parameter:
//     'messages[N].tool_call_id'.") and answers a call of the assistant
//     message before it ("Invalid parameter: messages with role 'tool'
//     must be a response to a preceeding message with 'tool_calls'.",
//     OpenAI's spelling, param "messages.[N].role");
//   - an assistant message with tool_calls is followed by a tool message
//     for each call ("An assistant message with 'tool_calls' must be
//     followed by tool messages responding to each 'tool_call_id'. The
//     following tool_call_ids did not have response messages: ID");
//   - an assistant message has content or tool_calls ("Invalid value for
//     'content': expected a string, got null.");
//   - content given as a list has at least one part ("Invalid
//     'messages[N].content': empty array. ...").
func check(b []byte, q *wire.Request) *wire.Error {
	s := wire.NewScanner(b)
	if s.Peek() != '{' {
		return nil
	}
	s.Enter()
	var err *wire.Error
	for s.More() {
		switch k := s.Key(); {
		case string(k) != "messages" || s.Peek() != '[':
			s.Skip()
		default:
			err = chatMessages(s) // the last of a repeated key wins
		}
	}
	return err
}

// chatShape is what the rules need of a chat message.
type chatShape struct {
	role       string
	toolCallID string
	hasCallID  bool
	calls      []string
	hasContent bool // content that is not null
	emptyList  bool
}

func chatMessages(s *wire.Scanner) *wire.Error {
	s.Enter()
	var (
		bad     *wire.Error
		open    wire.Calls // the calls of the last assistant message not answered yet
		openAt  = -1       // that message's index
		pending = func() *wire.Error {
			if open.Len() == 0 {
				return nil
			}
			return openai.Param(fmt.Sprintf("messages.[%d].role", openAt), "", "An assistant message with 'tool_calls' must be followed by tool "+
				"messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: "+strings.Join(open.Waiting(), ", "))
		}
	)
	for i := 0; s.More(); i++ {
		m := chatMessage(s)
		if bad != nil {
			continue
		}
		switch {
		case m.emptyList:
			bad = openai.Param(fmt.Sprintf("messages[%d].content", i), "empty_array", fmt.Sprintf(
				"Invalid 'messages[%d].content': empty array. Expected an array with minimum length 1, but got an empty array instead.", i))
			continue
		case m.role == "tool" && !m.hasCallID:
			bad = openai.Missing(fmt.Sprintf("messages[%d].tool_call_id", i))
			continue
		case m.role == "tool":
			if !open.Take(m.toolCallID) { // no call of the assistant message before, or one answered already
				bad = openai.Param(fmt.Sprintf("messages.[%d].role", i), "",
					"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.")
			}
			continue
		}
		// Any other message closes the run of tool answers.
		if bad = pending(); bad != nil {
			continue
		}
		open.Reset()
		openAt = -1
		if m.role == "assistant" {
			if !m.hasContent && len(m.calls) == 0 {
				bad = openai.Param(fmt.Sprintf("messages.[%d].content", i), "", "Invalid value for 'content': expected a string, got null.")
				continue
			}
			for _, id := range m.calls {
				open.Add(id)
			}
			if len(m.calls) > 0 {
				openAt = i
			}
		}
	}
	if bad != nil {
		return bad
	}
	return pending()
}

// chatMessage reads one message's role, tool_call_id, tool calls' ids and
// whether it has content.
func chatMessage(s *wire.Scanner) chatShape {
	var m chatShape
	if s.Peek() != '{' {
		s.Skip()
		return m
	}
	s.Enter()
	for s.More() {
		switch string(s.Key()) {
		case "role":
			role, _ := s.StringValue()
			m.role = wire.Role(role)
		case "tool_call_id":
			if id, ok := s.StringValue(); ok {
				m.toolCallID, m.hasCallID = string(id), true
			}
		case "content":
			m.hasContent, m.emptyList = false, false
			switch s.Peek() {
			case 'n':
				s.Literal()
			case '[':
				s.Enter()
				m.emptyList = true
				for s.More() {
					m.emptyList = false
					s.Skip()
				}
				m.hasContent = !m.emptyList
			default:
				s.Skip()
				m.hasContent = true
			}
		case "tool_calls":
			m.calls = chatCallIDs(s)
		default:
			s.Skip()
		}
	}
	return m
}

// chatCallIDs reads the ids of a message's tool calls.
func chatCallIDs(s *wire.Scanner) []string {
	if s.Peek() != '[' {
		s.Skip()
		return nil
	}
	s.Enter()
	var ids []string
	for s.More() {
		if s.Peek() != '{' {
			s.Skip()
			continue
		}
		s.Enter()
		id := ""
		for s.More() {
			if string(s.Key()) != "id" {
				s.Skip()
				continue
			}
			v, _ := s.StringValue()
			id = string(v)
		}
		ids = append(ids, id)
	}
	return ids
}
