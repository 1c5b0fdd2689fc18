package mockllm

// Tool definitions count in a request's input, as the real APIs count
// them: by the token rule, each tool's name, its description and the raw
// JSON of its schema (Anthropic's input_schema; OpenAI's parameters, under
// "function" in Chat Completions and at the top in the Responses API), each
// on its own.

// toolTokens reads a request's tools (s stands at the value of "tools")
// and returns their tokens; anything that is not a list of objects counts
// nothing.
func toolTokens(s *scanner) int {
	if s.peek() != '[' {
		s.skip()
		return 0
	}
	s.enter()
	total := 0
	for s.more() {
		total += toolDefinition(s)
	}
	return total
}

// toolDefinition counts one tool: its name, description and schema, and
// those of a nested "function" object.
func toolDefinition(s *scanner) int {
	if s.peek() != '{' {
		s.skip()
		return 0
	}
	s.enter()
	n := 0
	for s.more() {
		switch string(s.key()) {
		case "name", "description":
			if s.peek() == '"' {
				_, l := s.str()
				n += countBytes(l)
			} else {
				s.skip()
			}
		case "input_schema", "parameters":
			s.peek()
			start := s.i
			s.skip()
			n += countBytes(s.i - start)
		case "function":
			n += toolDefinition(s)
		default:
			s.skip()
		}
	}
	return n
}
