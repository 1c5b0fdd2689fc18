package anthropic

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The rules a conversation must follow beyond its fields' types, checked
// once the wire's walker has read the body (so the JSON is sound and every
// field it reads has its type), and worded as the real APIs word them. A
// client that echoes back what it should not (an empty text block, a
// tool_result for a call that was never made) is refused here as the real
// API refuses it.

// blockShape is what the rules need of a message: its role, whether its
// content is empty, the ids of its tool_use blocks and the tool_use_ids of
// its tool_result blocks (with the index of each block).
type blockShape struct {
	role    string
	empty   bool
	uses    []string
	results []idAt
}

type idAt struct {
	id    string
	index int
}

// checkMessages applies the Anthropic Messages API's rules to the
// messages of a body its walker has accepted:
//
//   - at least one message ("messages: at least one message is required");
//   - no empty content but in a final assistant message ("messages.N: all
//     messages must have non-empty content except for the optional final
//     assistant message");
//   - no empty text block ("messages: text content blocks must be
//     non-empty"), nor one of white space only ("messages: text content
//     blocks must contain non-whitespace text");
//   - every tool_result answers a tool_use of the message before it
//     ("messages.N.content.K: unexpected `tool_use_id` found in
//     `tool_result` blocks: ID. Each `tool_result` block must have a
//     corresponding `tool_use` block in the previous message.");
//   - every tool_use is answered by a tool_result in the message after it
//     ("messages.N: `tool_use` ids were found without `tool_result` blocks
//     immediately after: ID. Each `tool_use` block must have a
//     corresponding `tool_result` block in the next message.").
//
// Roles need not alternate otherwise: the real API joins consecutive turns
// of one role.
func checkMessages(b []byte, q *wire.Request) *wire.Error {
	s := wire.NewScanner(b)
	if s.Peek() != '{' {
		return nil
	}
	s.Enter()
	var err *wire.Error
	found := false
	for s.More() {
		switch k := s.Key(); {
		case string(k) != "messages" || s.Peek() != '[':
			s.Skip()
		default:
			found = true
			err = anthropicMessages(s) // the last of a repeated key wins
		}
	}
	if !found {
		return nil
	}
	return err
}

func anthropicMessages(s *wire.Scanner) *wire.Error {
	s.Enter()
	var (
		prev blockShape
		n    int
		bad  *wire.Error // the first error; the walk goes on to the end of the list
		// uses holds the tool_use ids of prev, answered those of the
		// message after it: each message's ids go into a set once, so
		// pairing 80,000 calls costs 80,000 look-ups, not their square.
		uses, answered = map[string]struct{}{}, map[string]struct{}{}
		pending        = func(i int, cur *blockShape) *wire.Error {
			// The tool_use ids of message i-1 that message i does not answer.
			if len(prev.uses) == 0 {
				return nil
			}
			if cur != nil {
				answered = reuse(answered, len(cur.results))
				for _, r := range cur.results {
					answered[r.id] = struct{}{}
				}
			}
			var missing []string
			for _, id := range prev.uses {
				if _, ok := answered[id]; !ok {
					missing = append(missing, id)
				}
			}
			if len(missing) == 0 {
				return nil
			}
			return wire.InvalidRequest(fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. "+
				"Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, strings.Join(missing, ", ")))
		}
	)
	for i := 0; s.More(); i++ {
		cur, err := anthropicMessage(s)
		n++
		if bad != nil {
			continue
		}
		if err != nil {
			bad = err
			continue
		}
		if cur.empty {
			// Only a final assistant message may be empty; whether this one
			// is final is known at the next.
			if cur.role != "assistant" {
				bad = emptyContent(i)
				continue
			}
		}
		if prev.empty && i > 0 {
			bad = emptyContent(i - 1)
			continue
		}
		for _, r := range cur.results {
			if _, ok := uses[r.id]; !ok {
				bad = wire.InvalidRequest(fmt.Sprintf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. "+
					"Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, r.index, r.id))
				break
			}
		}
		if bad == nil {
			bad = pending(i, &cur)
		}
		prev = cur
		uses = reuse(uses, len(prev.uses))
		for _, id := range prev.uses {
			uses[id] = struct{}{}
		}
	}
	switch {
	case bad != nil:
		return bad
	case n == 0:
		return wire.InvalidRequest("messages: at least one message is required")
	}
	return pending(n, nil)
}

// reuse empties a set for n ids: cleared when it is small, made anew with
// room for n when n is large, so that 80,000 ids go in without the set
// growing (and rehashing) a dozen times.
func reuse(set map[string]struct{}, n int) map[string]struct{} {
	if n > 64 {
		return make(map[string]struct{}, n)
	}
	clear(set)
	return set
}

func emptyContent(i int) *wire.Error {
	return wire.InvalidRequest(fmt.Sprintf("messages.%d: all messages must have non-empty content except for the optional final assistant message", i))
}

// anthropicMessage reads one message's role and content blocks.
func anthropicMessage(s *wire.Scanner) (blockShape, *wire.Error) {
	var m blockShape
	if s.Peek() != '{' {
		s.Skip()
		return m, nil
	}
	s.Enter()
	var err *wire.Error
	for s.More() {
		switch string(s.Key()) {
		case "role":
			role, _ := s.StringValue()
			m.role = wire.Role(role)
		case "content":
			m.uses, m.results = m.uses[:0], m.results[:0]
			switch s.Peek() {
			case '"':
				raw := s.RawString()
				m.empty = len(raw) == 0
				if len(raw) > 0 && err == nil && blank(raw) {
					err = wire.InvalidRequest("messages: text content blocks must contain non-whitespace text")
				}
			case '[':
				s.Enter()
				m.empty = true
				for k := 0; s.More(); k++ {
					m.empty = false
					if e := m.block(s, k); e != nil && err == nil {
						err = e
					}
				}
			default:
				s.Skip()
			}
		default:
			s.Skip()
		}
	}
	return m, err
}

// block reads content block k of a message.
func (m *blockShape) block(s *wire.Scanner, k int) *wire.Error {
	if s.Peek() != '{' {
		s.Skip()
		return nil
	}
	s.Enter()
	var (
		typ, id, useID []byte
		text           []byte
		textLen        int
		hasText        bool
	)
	for s.More() {
		switch string(s.Key()) {
		case "type":
			typ, _ = s.StringValue()
		case "id":
			id, _ = s.StringValue()
		case "tool_use_id":
			useID, _ = s.StringValue()
		case "text":
			if s.Peek() == '"' {
				text = s.RawString()
				textLen, hasText = len(text), true
			} else {
				s.Skip()
			}
		default:
			s.Skip()
		}
	}
	switch string(typ) {
	case "text":
		switch {
		case hasText && textLen == 0:
			return wire.InvalidRequest("messages: text content blocks must be non-empty")
		case hasText && blank(text):
			return wire.InvalidRequest("messages: text content blocks must contain non-whitespace text")
		}
	case "tool_use":
		m.uses = append(m.uses, string(id))
	case "tool_result":
		m.results = append(m.results, idAt{id: string(useID), index: k})
	}
	return nil
}

// blank reports whether the raw bytes of a JSON string are white space
// only, escaped or not.
func blank(raw []byte) bool {
	if bytes.IndexByte(raw, '\\') >= 0 {
		return strings.TrimSpace(jsonscan.Unquote(raw)) == ""
	}
	return len(bytes.TrimSpace(raw)) == 0
}
