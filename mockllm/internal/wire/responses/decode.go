package responses

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/faultbench/faultbench/internal/jsonscan"
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

// Decode reads and checks a Responses API body. Of a key given twice, the
// last counts, as encoding/json reads it. A body that is no JSON is
// unparsable whatever else is wrong with it; the whole body is validated
// apart only when the one pass failed or stopped short, so a good body is
// read once.
func (Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	s := wire.NewScanner(b)
	var spans [len(echoed)]span
	err := decode(s, q, &spans)
	if (err != nil || !s.End()) && !json.Valid(b) {
		*q = wire.Request{}
		return openai.Unparsable()
	}
	if err == nil {
		q.Echoed = keepEchoed(b, &spans)
	}
	return err
}

func decode(s *wire.Scanner, q *wire.Request, spans *[len(echoed)]span) *wire.Error {
	if err := openai.Open(s); err != nil {
		return err
	}
	q.MaxTokensKey = "max_output_tokens"
	var (
		hasInput     bool
		instructions int
		in           input
		err          *wire.Error
	)
	for s.More() && err == nil {
		k := s.Key()
		f := echoField(k)
		start := 0
		if f >= 0 {
			s.Peek()
			start = s.Pos()
		}
		switch string(k) {
		case "model":
			err = openai.ReadModel(s, q)
		case "instructions":
			instructions = 0
			q.Cache.Begin(wire.SegSystem)
			switch s.Peek() {
			case '"':
				raw, n := s.Str()
				instructions = wire.CountBytes(n)
				q.Cache.Add(wire.Hash(raw), instructions, true)
			case 'n':
				s.Literal()
			default:
				err = openai.TypeError(s, "instructions", "a string")
			}
		case "input":
			hasInput = true
			q.Cache.Begin(wire.SegMessages)
			in, err = readInput(s, q.KeepLast, &q.Cache)
		case "max_output_tokens":
			err = openai.ReadMaxTokens(s, q, "max_output_tokens")
		case "stream":
			err = openai.ReadBool(s, "stream", &q.Stream)
		case "store":
			// null is the API's default, true; the answer echoes it.
			store := true
			if !s.IsNull() {
				err = openai.ReadBool(s, "store", &store)
			}
			q.NoStore = !store
		case "tools":
			err = openai.ReadTools(s, q)
		case "metadata":
			err = readMetadata(s)
		case "reasoning":
			if !s.IsNull() && s.Peek() != '{' {
				err = openai.TypeError(s, "reasoning", "an object")
			} else {
				s.Skip()
			}
		default:
			if !known(k) {
				err = unknownParameter(k)
			}
			s.Skip()
		}
		if f >= 0 && err == nil { // the last of a key given twice counts
			if nested(s.Bytes()[start:s.Pos()], maxEchoDepth) {
				err = openai.Unparsable()
			}
			spans[f] = span{start, s.Pos()}
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
	q.SystemTokens, q.MessageTokens, q.Messages, q.Last = instructions+in.system, in.messages, in.count, in.last
	q.HasMessages = true
	q.Cache.Resolve()
	return nil
}

// params are the top-level parameters the API takes besides those decode
// reads or echoes: any other is refused as an unknown parameter.
// client_metadata is Codex's, which the API takes.
var params = [...]string{
	"access_programs", "client_metadata", "context_management", "conversation", "image", "include",
	"moderation", "prompt", "prompt_cache_options", "prompt_cache_retention", "stream_options",
}

// known reports whether k is a parameter of the API.
func known(k []byte) bool {
	if echoField(k) >= 0 {
		return true
	}
	for _, p := range params {
		if string(k) == p {
			return true
		}
	}
	return false
}

// maxNameBytes is the most of an unknown parameter's name its error
// repeats: 256 bytes, then "…" (the journal keeps the message).
const maxNameBytes = 256

// unknownParameter is the API's 400 for a parameter it does not take.
func unknownParameter(k []byte) *wire.Error {
	name := string(k)
	if len(name) > maxNameBytes {
		name = strings.ToValidUTF8(name[:maxNameBytes], "") + "…"
	}
	return openai.Param(name, "unknown_parameter", "Unknown parameter: '"+name+"'.")
}

// The API's limits on metadata: at most 16 keys, each at most 64
// characters long, each value a string of at most 512 characters.
const (
	maxMetadataKeys  = 16
	maxMetadataKey   = 64
	maxMetadataValue = 512
)

// readMetadata reads metadata: null, or an object of strings within the
// API's limits. Too many keys is told first, then the first key or value
// that breaks a limit.
func readMetadata(s *wire.Scanner) *wire.Error {
	if s.IsNull() {
		s.Skip()
		return nil
	}
	if s.Peek() != '{' {
		return openai.TypeError(s, "metadata", "an object")
	}
	var first *wire.Error
	n := 0
	for s.Enter(); s.More(); n++ {
		key := string(s.Key())
		switch {
		case first != nil:
		case utf8.RuneCountInString(key) > maxMetadataKey:
			first = openai.Param("metadata", "string_above_max_length", fmt.Sprintf(
				"Invalid 'metadata': key too long. Expected a key with maximum length %d, but got a key with length %d instead.", maxMetadataKey, utf8.RuneCountInString(key)))
		case s.Peek() != '"':
			first = openai.TypeError(s, "metadata."+key, "a string")
		default:
			at := s.Pos()
			raw, _ := s.Str()
			if n := utf8.RuneCountInString(jsonscan.Unquote(raw)); n > maxMetadataValue {
				first = openai.Param("metadata."+key, "string_above_max_length", fmt.Sprintf(
					"Invalid 'metadata.%s': string too long. Expected a string with maximum length %d, but got a string with length %d instead.", key, maxMetadataValue, n))
			}
			s.Seek(at)
		}
		s.Skip()
	}
	if n > maxMetadataKeys {
		return openai.Param("metadata", "object_above_max_properties", fmt.Sprintf(
			"Invalid 'metadata': too many properties. Expected an object with at most %d properties, but got an object with %d properties instead.", maxMetadataKeys, n))
	}
	return first
}

// maxEchoDepth is the deepest nesting of arrays and objects a setting the
// answer echoes may have: 64 levels. A deeper one is refused as a body
// the API cannot parse, since a client's JSON parser could not read the
// answer that echoed it (Python's recursion, serde_json's 128 levels).
const maxEchoDepth = 64

// nested reports whether the JSON value v nests arrays and objects more
// than limit deep.
func nested(v []byte, limit int) bool {
	depth, in := 0, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case in:
			if c == '\\' {
				i++
			} else if c == '"' {
				in = false
			}
		case c == '"':
			in = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// echoed are the fields of a request that its answer echoes as sent, each
// with the first bytes of the JSON values the API takes for it: a value
// of another type, or null, is echoed as the API's default.
var echoed = [...]struct{ key, takes string }{
	{"background", "tf"},
	{"instructions", `"`},
	{"max_tool_calls", "-0123456789"},
	{"metadata", "{"},
	{"parallel_tool_calls", "tf"},
	{"previous_response_id", `"`},
	{"prompt_cache_key", `"`},
	{"reasoning", "{"},
	{"safety_identifier", `"`},
	{"service_tier", `"`},
	{"temperature", "-0123456789"},
	{"text", "{"},
	{"tool_choice", `"{`},
	{"tools", "["},
	{"top_logprobs", "-0123456789"},
	{"top_p", "-0123456789"},
	{"truncation", `"`},
	{"user", `"`},
}

// echoField is k's index in echoed, or -1.
func echoField(k []byte) int {
	for i := range echoed {
		if string(k) == echoed[i].key {
			return i
		}
	}
	return -1
}

// span is where a value lies in the body; end 0: not sent.
type span struct{ start, end int }

// keepEchoed copies the echoed fields' values out of the body (which goes
// back to its pool) into one buffer of their own: those of a type the API
// takes, in echoed's order, while they fit in wire.MaxEchoBytes.
func keepEchoed(b []byte, spans *[len(echoed)]span) []wire.RawValue {
	total, n := 0, 0
	for i, sp := range spans {
		if sp.end <= sp.start || !strings.ContainsRune(echoed[i].takes, rune(b[sp.start])) || total+sp.end-sp.start > wire.MaxEchoBytes {
			spans[i] = span{}
			continue
		}
		total += sp.end - sp.start
		n++
	}
	if n == 0 {
		return nil
	}
	// Compacted: a value sent pretty-printed would otherwise break a
	// stream's data: line. None grows, so the values share buf's array.
	buf := bytes.NewBuffer(make([]byte, 0, total))
	out := make([]wire.RawValue, 0, n)
	for i, sp := range spans {
		if sp.end == 0 {
			continue
		}
		at := buf.Len()
		if json.Compact(buf, b[sp.start:sp.end]) != nil {
			continue // buf is left as it was: the field is echoed as the API's default
		}
		out = append(out, wire.RawValue{Key: echoed[i].key, Value: buf.Bytes()[at:buf.Len():buf.Len()]})
	}
	return out
}

// input is what the decoder keeps of the input: the tokens of its system
// (and developer) messages and of the rest, how many items it has, and
// the raw content of the last (when keep asks for it).
type input struct {
	system, messages, count int
	last                    []byte
}

// readInput reads input: a string (one user message), or a list of items.
// A function_call_output must answer a function_call before it, and every
// function_call must be answered, as the real API requires; each answer
// is a map look-up, so 80,000 calls are paired in linear time.
func readInput(s *wire.Scanner, keep bool, p *wire.Prefix) (input, *wire.Error) {
	var in input
	switch s.Peek() {
	case '"':
		start := s.Pos()
		_, n := s.Str()
		in.messages = wire.CountBytes(n)
		p.Add(wire.Hash(s.Bytes()[start:s.Pos()]), in.messages, true)
		if keep {
			in.last = bytes.Clone(s.Bytes()[start:s.Pos()])
		}
		return in, nil
	case '[':
	default:
		return in, openai.TypeError(s, "input", "one of a string or array of objects")
	}
	s.Enter()
	var calls wire.Calls // function calls not answered yet
	for i := 0; s.More(); i++ {
		s.Peek()
		start := s.Pos()
		it, err := readItem(s, i)
		if err != nil {
			return in, err
		}
		if p.On { // an exact prefix: the item as sent
			p.Add(wire.Hash(s.Bytes()[start:s.Pos()]), it.tokens, true)
		}
		switch {
		case it.typ == "function_call":
			calls.Add(it.callID)
		case it.typ == "function_call_output":
			if !calls.Take(it.callID) {
				return in, openai.Param("input", "", "No tool call found for function call output with call_id "+it.callID+".")
			}
		case calls.Len() > 0:
			return in, openai.Param("input", "", "No tool output found for function call "+calls.First()+".")
		}
		if it.system {
			in.system += it.tokens
		} else {
			in.messages += it.tokens
		}
		in.count++
		if keep && it.contentEnd > it.contentStart {
			in.last = bytes.Clone(s.Bytes()[it.contentStart:it.contentEnd])
		}
	}
	if calls.Len() > 0 {
		return in, openai.Param("input", "", "No tool output found for function call "+calls.First()+".")
	}
	return in, nil
}

// item is what the decoder keeps of one input item.
type item struct {
	typ, callID              string
	system                   bool
	tokens                   int
	contentStart, contentEnd int
}

// readItem reads input item i: its type (a message when it has none), its
// role, and the texts that count (of a key given twice, the last). A call
// or its output needs a call_id; every field it reads has its type, and a
// role is one the API knows.
func readItem(s *wire.Scanner, i int) (item, *wire.Error) {
	var it item
	if s.Peek() != '{' {
		return it, openai.TypeError(s, fmt.Sprintf("input[%d]", i), "an object")
	}
	s.Enter()
	var (
		hasCallID             bool
		content, output, args int // tokens
	)
	str := func(key string) ([]byte, *wire.Error) {
		if s.Peek() != '"' {
			return nil, openai.TypeError(s, fmt.Sprintf("input[%d].%s", i, key), "a string")
		}
		v, _ := s.StringValue()
		return v, nil
	}
	for s.More() {
		var err *wire.Error
		switch k := s.Key(); string(k) {
		case "type":
			var v []byte
			v, err = str("type")
			it.typ = string(v)
		case "role":
			var v []byte
			if v, err = str("role"); err == nil {
				switch role := string(v); role {
				case "system", "developer":
					it.system = true
				case "user", "assistant":
					it.system = false
				default:
					err = openai.Param(fmt.Sprintf("input[%d].role", i), "invalid_value", fmt.Sprintf(
						"Invalid value: '%s'. Supported values are: 'assistant', 'system', 'developer', and 'user'.", role))
				}
			}
		case "call_id":
			var v []byte
			v, err = str("call_id")
			it.callID, hasCallID = string(v), true
		case "content", "output":
			s.Peek()
			it.contentStart = s.Pos()
			var n int
			n, err = readParts(s, i)
			if string(k) == "content" {
				content = n
			} else {
				output = n
			}
			it.contentEnd = s.Pos()
		case "arguments":
			if s.Peek() != '"' {
				err = openai.TypeError(s, fmt.Sprintf("input[%d].arguments", i), "a string")
				break
			}
			_, n := s.Str()
			args = wire.CountBytes(n)
		default:
			s.Skip()
		}
		if err != nil {
			return it, err
		}
	}
	if (it.typ == "function_call" || it.typ == "function_call_output") && !hasCallID {
		return it, openai.Missing(fmt.Sprintf("input[%d].call_id", i))
	}
	it.tokens = content + output + args
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
	text := 0 // the last text wins
	for s.More() {
		if string(s.Key()) == "text" && s.Peek() == '"' {
			_, n := s.Str()
			text = wire.CountBytes(n)
			continue
		}
		s.Skip()
	}
	return text
}
