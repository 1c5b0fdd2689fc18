package openai

import (
	"bytes"
	"fmt"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The readers OpenAI's two request bodies share: the body's object, the
// model, stream, an output budget, and content given as a string or a
// list of parts.

// Open enters the body's top-level object, or refuses a body that is
// none.
func Open(s *wire.Scanner) *wire.Error {
	if s.Peek() != '{' {
		return Param("", "invalid_type", fmt.Sprintf("Invalid type for body: expected an object, but got %s instead.", KindOf(s)))
	}
	s.Enter()
	return nil
}

// ReadModel reads the model, a string.
func ReadModel(s *wire.Scanner, q *wire.Request) *wire.Error {
	if s.Peek() != '"' {
		return TypeError(s, "model", "a string")
	}
	raw, _ := s.Str()
	q.Model, q.HasModel = jsonscan.Unquote(raw), true
	return nil
}

// maxTierBytes bounds the service_tier a request's answer names: the
// API's tiers are short words ("priority"); a longer string is no tier
// and is not kept.
const maxTierBytes = 32

// ReadServiceTier reads service_tier: a string is kept, as JSON, for the
// answer to name (AppendServiceTier); anything else is read past.
func ReadServiceTier(s *wire.Scanner, q *wire.Request) {
	if s.Peek() != '"' {
		s.Skip()
		return
	}
	start := s.Pos()
	s.SkipString()
	if v := s.Bytes()[start:s.Pos()]; len(v) <= maxTierBytes && !s.Bad() {
		q.Echoed = []wire.RawValue{{Key: "service_tier", Value: bytes.Clone(v)}}
	}
}

// AppendServiceTier appends the tier that served a request that asked
// for tier (its JSON string; nil: none asked): the tier asked, or
// "default" for "auto" or none, as the API answers.
func AppendServiceTier(b, tier []byte) []byte {
	if tier == nil || string(tier) == `"auto"` {
		return append(b, `"default"`...)
	}
	return append(b, tier...)
}

// ReadBool reads a boolean (null is false) named param.
func ReadBool(s *wire.Scanner, param string, v *bool) *wire.Error {
	switch s.Peek() {
	case 't':
		*v = true
	case 'f', 'n':
		*v = false
	default:
		return TypeError(s, param, "a boolean")
	}
	s.Literal()
	return nil
}

// ReadMaxTokens reads an output budget given under key: an integer, or
// null for none.
func ReadMaxTokens(s *wire.Scanner, q *wire.Request, key string) *wire.Error {
	if s.IsNull() {
		return nil
	}
	if c := s.Peek(); c != '-' && (c < '0' || c > '9') {
		return TypeError(s, key, "an integer")
	}
	at := s.Pos()
	lit := s.Literal()
	n, ok := jsonscan.Integer(lit)
	if !ok {
		if isInteger(lit) {
			return Param(key, "integer_above_max_value", fmt.Sprintf(
				"Invalid '%s': integer above maximum value. Expected a value <= %d, but got %s instead.", key, 1<<31-1, clipLiteral(lit)))
		}
		s.Seek(at)
		return TypeError(s, key, "an integer")
	}
	q.MaxTokens, q.HasMaxTokens, q.MaxTokensKey = n, true, key
	return nil
}

// Content reads content given as a string, null, or a list of parts
// (param names it in a type error), and returns its tokens: a string's
// text, or the sum part gives for each part j of the list.
func Content(s *wire.Scanner, param string, part func(j int) (int, *wire.Error)) (int, *wire.Error) {
	switch s.Peek() {
	case '"':
		_, n := s.Str()
		return wire.CountBytes(n), nil
	case 'n':
		s.Literal()
		return 0, nil
	case '[':
	default:
		return 0, TypeError(s, param, "one of a string or array of objects")
	}
	s.Enter()
	total := 0
	for j := 0; s.More(); j++ {
		n, err := part(j)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// ReadTools reads tools: null, or a list of objects, whose definitions
// count in the input.
func ReadTools(s *wire.Scanner, q *wire.Request) *wire.Error {
	n, err := wire.ToolTokens(s, &q.Cache, func(j int) *wire.Error {
		if j < 0 {
			return TypeError(s, "tools", "an array")
		}
		return TypeError(s, fmt.Sprintf("tools[%d]", j), "an object")
	})
	q.ToolTokens = n
	return err
}
