package gemini

import (
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/wiretest"
)

func walkBody(s *wire.Scanner) bool {
	d := decoder{s: s, q: new(wire.Request)}
	return d.walk() != nil
}

// TestWalkerReadsValidJSON: the walker checks syntax as it reads, so on
// any body json.Valid accepts it finds no syntax error, however deep the
// strings of a function response or the values of a tool's parameters.
func TestWalkerReadsValidJSON(t *testing.T) {
	for _, b := range wiretest.Corpus(t) {
		wiretest.CheckWalker(t, b, walkBody)
	}
	for _, depth := range []int{jsonscan.MaxNesting - 8, jsonscan.MaxNesting - 7} {
		nested := strings.Repeat("[", depth) + `"x"` + strings.Repeat("]", depth)
		wiretest.CheckWalker(t, []byte(`{"contents":[{"role":"user","parts":[{"text":"x"}]}],"x":`+nested+`}`), walkBody)
		wiretest.CheckWalker(t, []byte(`{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":`+nested+`}}]}]}`), walkBody)
	}
}
