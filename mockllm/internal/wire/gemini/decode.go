package gemini

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// Decode reads a generateContent (or countTokens) body in one pass, then
// holds its contents to the Gemini API's rules. The model and whether it
// streams come from the path (Route), not the body.
func (Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	s := wire.NewScanner(b)
	d := decoder{s: s, q: q}
	err := d.walk()
	if (err != nil || !s.End()) && !json.Valid(b) {
		*q = wire.Request{Model: q.Model, HasModel: q.HasModel, Stream: q.Stream, Array: q.Array, CountOnly: q.CountOnly}
		return invalid("Invalid JSON payload received. Unexpected token.", wire.KindInvalidRequest)
	}
	if err != nil {
		return err
	}
	return d.check()
}

// decoder walks one body. Texts are measured, not kept.
type decoder struct {
	s *wire.Scanner
	q *wire.Request
	// The turn rules are checked as the contents are read, each content
	// against the one before (prev), so that the decoder keeps nothing per
	// content: n counts the contents of the last contents key, broken is
	// the first rule a content broke (reported once the body is read, so
	// that a syntax error later in it wins, as on the real API).
	prev   turn
	n      int
	broken *wire.Error
}

// turn is what the rules need of one content.
type turn struct {
	badRole          bool // a role other than user or model
	parts            int
	calls, responses int
}

func (d *decoder) walk() *wire.Error {
	s := d.s
	if s.Peek() != '{' {
		return invalid("Invalid JSON payload received. Expected an object.", wire.KindInvalidRequest)
	}
	s.Enter()
	for s.More() {
		var err *wire.Error
		switch k := string(s.Key()); k {
		case "contents":
			err = d.contents("contents")
		case "systemInstruction", "system_instruction":
			var n int
			n, err = d.content(at{top: k, i: -1, j: -1}, -1)
			d.q.SystemTokens = n
		case "generationConfig", "generation_config":
			err = d.generationConfig(k)
		case "tools":
			d.q.ToolTokens, err = d.tools()
		case "generateContentRequest", "generate_content_request":
			// countTokens may wrap a whole generateContent request.
			if s.Peek() != '{' {
				return typeError(k, "an object")
			}
			err = d.walk()
		default:
			s.Skip()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) contents(top string) *wire.Error {
	s := d.s
	if s.Peek() != '[' {
		return typeError(top, "an array")
	}
	d.q.HasMessages = true
	d.q.Messages, d.q.MessageTokens, d.n, d.broken = 0, 0, 0, nil // the last of a repeated key wins
	s.Enter()
	for i := 0; s.More(); i++ {
		s.LastStart, s.LastEnd = 0, 0
		n, err := d.content(at{top: top, i: i, j: -1}, i)
		if err != nil {
			return err
		}
		d.q.MessageTokens += n
		d.q.Messages++
		if d.q.KeepLast {
			// when.contains reads the last content's parts.
			d.q.Last = s.Clone(s.LastStart, s.LastEnd)
		}
	}
	return nil
}

// content reads a Content (i >= 0: contents[i]; -1: the system
// instruction) and returns its tokens.
func (d *decoder) content(path at, i int) (int, *wire.Error) {
	s := d.s
	if s.IsNull() && i < 0 {
		return 0, nil
	}
	if s.Peek() != '{' {
		return 0, typeError(path.String(), "an object")
	}
	s.Enter()
	var t turn
	tokens := 0
	for s.More() {
		switch string(s.Key()) {
		case "role":
			if s.Peek() != '"' {
				return 0, typeError(path.String()+".role", "a string")
			}
			r, _ := s.StringValue()
			switch string(r) {
			case "", "user", "model", "function":
				t.badRole = false
			default:
				t.badRole = true
			}
		case "parts":
			if s.Peek() != '[' {
				return 0, typeError(path.String()+".parts", "an array")
			}
			s.LastStart = s.Pos()
			s.Enter()
			t.parts, t.calls, t.responses, tokens = 0, 0, 0, 0
			for j := 0; s.More(); j++ {
				n, kind, err := d.part(path.part(j))
				if err != nil {
					return 0, err
				}
				tokens += n
				t.parts++
				switch kind {
				case "functionCall":
					t.calls++
				case "functionResponse":
					t.responses++
				}
			}
			s.LastEnd = s.Pos()
		default:
			s.Skip()
		}
	}
	if i >= 0 {
		if d.broken == nil {
			d.broken = d.rule(i, t)
		}
		d.prev, d.n = t, d.n+1
	}
	return tokens, nil
}

// part reads one Part: a text counts its text, a functionCall the raw
// JSON of its args, a functionResponse the strings of its response.
func (d *decoder) part(path at) (int, string, *wire.Error) {
	s := d.s
	if s.Peek() != '{' {
		return 0, "", typeError(path.String(), "an object")
	}
	s.Enter()
	tokens, kind := 0, ""
	for s.More() {
		switch k := string(s.Key()); k {
		case "text":
			if s.Peek() != '"' {
				return 0, "", typeError(path.String()+".text", "a string")
			}
			_, n := s.Str()
			tokens, kind = wire.CountBytes(n), "text"
		case "functionCall", "function_call":
			n, err := d.call(path.field(k))
			if err != nil {
				return 0, "", err
			}
			tokens, kind = n, "functionCall"
		case "functionResponse", "function_response":
			n, err := d.response(path.field(k))
			if err != nil {
				return 0, "", err
			}
			tokens, kind = n, "functionResponse"
		case "thought", "thoughtSignature", "thought_signature":
			s.Skip()
		default:
			if kind == "" {
				kind = k
			}
			s.Skip()
		}
	}
	if kind == "" {
		return 0, "", invalid(fmt.Sprintf("* GenerateContentRequest.%s.data: required oneof field 'data' must have one initialized field", path.String()), wire.KindInvalidRequest)
	}
	return tokens, kind, nil
}

// call reads a FunctionCall: its name is required, the raw JSON of its
// args counts.
func (d *decoder) call(path at) (int, *wire.Error) { return d.named(path, "args", rawTokens) }

// response reads a FunctionResponse: its name is required, the strings of
// its response count.
func (d *decoder) response(path at) (int, *wire.Error) {
	return d.named(path, "response", stringTokens)
}

// named reads an object whose name is required and whose field body
// counts, as count measures it.
func (d *decoder) named(path at, body string, count func(*wire.Scanner) int) (int, *wire.Error) {
	s := d.s
	if s.Peek() != '{' {
		return 0, typeError(path.String(), "an object")
	}
	s.Enter()
	tokens, named := 0, false
	for s.More() {
		switch k := s.Key(); {
		case string(k) == "name":
			if s.Peek() != '"' {
				return 0, typeError(path.String()+".name", "a string")
			}
			_, n := s.Str()
			named = n > 0
		case string(k) == body:
			tokens = count(s)
		default:
			s.Skip()
		}
	}
	if !named {
		return 0, invalid(fmt.Sprintf("* GenerateContentRequest.%s.name: Name cannot be empty.", path.String()), wire.KindInvalidRequest)
	}
	return tokens, nil
}

// rawTokens counts the raw JSON of the value at s, as sent.
func rawTokens(s *wire.Scanner) int {
	s.Peek()
	start := s.Pos()
	s.Skip()
	return wire.CountBytes(s.Pos() - start)
}

// stringTokens counts every string inside the value at s.
func stringTokens(s *wire.Scanner) int {
	switch s.Peek() {
	case '"':
		_, n := s.Str()
		return wire.CountBytes(n)
	case '{':
		s.Enter()
		total := 0
		for s.More() {
			s.Key()
			total += stringTokens(s)
		}
		return total
	case '[':
		s.Enter()
		total := 0
		for s.More() {
			total += stringTokens(s)
		}
		return total
	}
	s.Skip()
	return 0
}

func (d *decoder) generationConfig(path string) *wire.Error {
	s := d.s
	if s.IsNull() {
		return nil
	}
	if s.Peek() != '{' {
		return typeError(path, "an object")
	}
	s.Enter()
	for s.More() {
		switch string(s.Key()) {
		case "maxOutputTokens", "max_output_tokens":
			if s.IsNull() {
				continue
			}
			at := s.Pos()
			n, ok := jsonscan.Integer(s.Literal())
			if !ok {
				s.Seek(at)
				return typeError(path+".maxOutputTokens", "an integer")
			}
			d.q.MaxTokens, d.q.HasMaxTokens = n, true
		default:
			s.Skip()
		}
	}
	return nil
}

// tools counts each tool's function declarations: name, description and
// the raw JSON of parameters (or parametersJsonSchema).
func (d *decoder) tools() (int, *wire.Error) {
	s := d.s
	if s.IsNull() {
		return 0, nil
	}
	if s.Peek() != '[' {
		return 0, typeError("tools", "an array")
	}
	s.Enter()
	total := 0
	for s.More() {
		if s.Peek() != '{' {
			return 0, typeError("tools", "an array of objects")
		}
		s.Enter()
		for s.More() {
			k := string(s.Key())
			if (k != "functionDeclarations" && k != "function_declarations") || s.Peek() != '[' {
				s.Skip()
				continue
			}
			s.Enter()
			for s.More() {
				if s.Peek() != '{' {
					s.Skip()
					continue
				}
				s.Enter()
				for s.More() {
					switch string(s.Key()) {
					case "name", "description":
						total += stringTokens(s)
					case "parameters", "parametersJsonSchema", "parameters_json_schema":
						total += rawTokens(s)
					default:
						s.Skip()
					}
				}
			}
		}
	}
	return total, nil
}

// check holds the body to the contents' rules once it is read: at least
// one content (a count may have none), and the first rule a content broke.
func (d *decoder) check() *wire.Error {
	if d.n == 0 && !d.q.CountOnly {
		return invalid("* GenerateContentRequest.contents: contents is not specified", wire.KindInvalidRequest)
	}
	return d.broken
}

// rule holds content i to the API's rules: of role user or model, with
// parts, and a turn of function responses right after the model turn
// that called (d.prev), answering each call.
func (d *decoder) rule(i int, t turn) *wire.Error {
	if t.badRole {
		return invalid(fmt.Sprintf("Please use a valid role: user, model. (contents[%d].role)", i), wire.KindInvalidRequest)
	}
	if t.parts == 0 {
		return invalid(fmt.Sprintf("* GenerateContentRequest.contents[%d].parts: contents.parts must not be empty.", i), wire.KindInvalidRequest)
	}
	if t.responses == 0 {
		return nil
	}
	if i == 0 || d.prev.calls == 0 {
		return invalid("Please ensure that function response turn comes immediately after a function call turn.", wire.KindInvalidRequest)
	}
	if d.prev.calls != t.responses {
		return invalid("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.", wire.KindInvalidRequest)
	}
	return nil
}

// at names a field of the contents for an error, built only when one is
// worded: contents[i].parts[j].key (j and key when set; i -1 for the
// system instruction).
type at struct {
	top  string
	i, j int
	key  string
}

func (a at) part(j int) at { a.j = j; return a }

func (a at) field(k string) at { a.key = k; return a }

func (a at) String() string {
	p := a.top
	if a.i >= 0 {
		p += "[" + strconv.Itoa(a.i) + "]"
	}
	if a.j >= 0 {
		p += ".parts[" + strconv.Itoa(a.j) + "]"
	}
	if a.key != "" {
		p += "." + a.key
	}
	return p
}

// typeError is the real API's answer to a field of the wrong type.
func typeError(path, want string) *wire.Error {
	return invalid(fmt.Sprintf("Invalid JSON payload received. Invalid value at '%s': want %s.", path, want), wire.KindInvalidRequest)
}
