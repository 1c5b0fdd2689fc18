package chat

import (
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/wiretest"
)

func walkBody(s *wire.Scanner) bool { return walk(new(wire.Request), s) != nil }

// TestWalkerReadsValidJSON: the walker checks syntax as it reads, so on
// any body json.Valid accepts it finds no syntax error.
func TestWalkerReadsValidJSON(t *testing.T) {
	for _, b := range wiretest.Corpus(t) {
		wiretest.CheckWalker(t, b, walkBody)
	}
	for _, depth := range []int{jsonscan.MaxNesting - 2, jsonscan.MaxNesting - 1} {
		nested := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		wiretest.CheckWalker(t, []byte(`{"model":"s","messages":[{"role":"user","content":"x"}],"x":`+nested+`}`), walkBody)
	}
}
