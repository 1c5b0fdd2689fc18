package wire

import (
	"bytes"
	"time"
)

// Tool definitions count in a request's input, as the real APIs count
// them: by the token rule, each tool's name, its description and the raw
// JSON of its schema (Anthropic's input_schema; OpenAI's parameters, under
// "function" in Chat Completions and at the top in the Responses API), each
// on its own.

// ToolTokens reads a request's tools (s stands at the value of "tools"):
// null, or a list of objects, and returns their tokens. Anything else is
// the error wrong words, called with s standing at the value at fault
// (j = -1: the tools themselves; else tool j), as the real APIs refuse it.
//
// For the prompt cache (p), the tools are one piece of their segment,
// hashed as sent; a tool with a cache_control marks a breakpoint after
// them all.
func ToolTokens(s *Scanner, p *Prefix, wrong func(j int) *Error) (int, *Error) {
	p.Begin(SegTools)
	s.Peek()
	start := s.Pos()
	switch s.Peek() {
	case 'n':
		s.Literal()
		return 0, nil
	case '[':
	default:
		return 0, wrong(-1)
	}
	s.Enter()
	total := 0
	var ttl time.Duration
	for j := 0; s.More(); j++ {
		if s.Peek() != '{' {
			return 0, wrong(j)
		}
		n, mark := toolDefinition(s)
		total += n
		ttl = max(ttl, mark)
	}
	p.Add(Hash(s.Bytes()[start:s.Pos()]), total, true)
	if ttl > 0 {
		p.Mark(ttl)
	}
	return total, nil
}

// toolDefinition counts one tool: its name, description and schema, and
// those of a nested "function" object; of a key given twice, the last
// counts, as encoding/json would read it.
//
// mark is the lifetime its cache_control asks (0: none; "1h" anywhere in
// it asks an hour, else five minutes).
func toolDefinition(s *Scanner) (n int, mark time.Duration) {
	if s.Peek() != '{' {
		s.Skip()
		return 0, 0
	}
	s.Enter()
	var name, desc, inSchema, params, fn int
	for s.More() {
		switch string(s.Key()) {
		case "cache_control":
			s.Peek()
			at := s.Pos()
			s.Skip()
			switch raw := s.Bytes()[at:s.Pos()]; {
			case bytes.Equal(raw, []byte("null")):
			case bytes.Contains(raw, []byte(`"1h"`)):
				mark = time.Hour
			default:
				mark = 5 * time.Minute
			}
		case "name":
			name = stringTokens(s)
		case "description":
			desc = stringTokens(s)
		case "input_schema":
			inSchema = rawTokens(s)
		case "parameters":
			params = rawTokens(s)
		case "function":
			fn, _ = toolDefinition(s)
		default:
			s.Skip()
		}
	}
	return name + desc + inSchema + params + fn, mark
}

// stringTokens is the tokens of a string value, 0 for any other.
func stringTokens(s *Scanner) int {
	if s.Peek() != '"' {
		s.Skip()
		return 0
	}
	_, n := s.Str()
	return CountBytes(n)
}

// rawTokens is the tokens of a value's raw JSON.
func rawTokens(s *Scanner) int {
	s.Peek()
	start := s.Pos()
	s.Skip()
	return CountBytes(s.Pos() - start)
}
