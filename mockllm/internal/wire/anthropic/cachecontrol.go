package anthropic

import (
	"fmt"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The cache lifetimes a cache_control may ask for: "5m" (the default)
// and "1h".
const (
	ttl5m = 5 * time.Minute
	ttl1h = time.Hour
)

// cacheControl reads a block's cache_control, {"type":"ephemeral"} with
// an optional "ttl" of "5m" or "1h", and returns its lifetime (0 for
// null: no breakpoint), worded as the real API refuses anything else.
func (s *walker) cacheControl() (time.Duration, *fieldError) {
	if s.IsNull() {
		return 0, nil
	}
	s.Push("cache_control")
	defer s.Pop()
	if s.Peek() != '{' {
		return 0, s.fail(msgDict)
	}
	s.Enter()
	ttl, hasType := ttl5m, false
	for s.More() {
		switch string(s.Key()) {
		case "type":
			v, ok := s.StringValue()
			if !ok || string(v) != "ephemeral" {
				return 0, s.failKey("type", "Input should be 'ephemeral'")
			}
			hasType = true
		case "ttl":
			v, ok := s.StringValue()
			switch {
			case ok && string(v) == "5m":
				ttl = ttl5m
			case ok && string(v) == "1h":
				ttl = ttl1h
			default:
				return 0, s.failKey("ttl", "Input should be '5m' or '1h'")
			}
		default:
			s.Skip()
		}
	}
	if !hasType {
		return 0, s.failKey("type", msgRequired)
	}
	return ttl, nil
}

// checkMarks refuses more breakpoints than the API takes, in its words.
func checkMarks(p *wire.Prefix) *wire.Error {
	if p.Marks > wire.MaxMarks {
		return wire.InvalidRequest(fmt.Sprintf("A maximum of %d blocks with cache_control may be provided. Found %d.", wire.MaxMarks, p.Marks))
	}
	return nil
}
