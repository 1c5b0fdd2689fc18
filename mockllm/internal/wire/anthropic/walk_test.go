package anthropic

import (
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/wiretest"
)

func walkBody(s *wire.Scanner) bool {
	q := &wire.Request{Cache: wire.Prefix{On: true}}
	return walk(q, &walker{Scanner: s, pre: &q.Cache}) != nil
}

// TestWalkerReadsValidJSON: the walker checks syntax as it reads, so on
// any body json.Valid accepts it finds no syntax error.
func TestWalkerReadsValidJSON(t *testing.T) {
	for _, b := range wiretest.Corpus(t) {
		wiretest.CheckWalker(t, b, walkBody)
	}
	for _, depth := range []int{jsonscan.MaxNesting - 2, jsonscan.MaxNesting - 1} {
		inner := `"x"`
		for i := 0; i < depth/2; i++ {
			inner = `[{"type":"tool_result","tool_use_id":"t","content":` + inner + `}]`
		}
		wiretest.CheckWalker(t, []byte(`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":`+inner+`}]}`), walkBody)
		nested := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		wiretest.CheckWalker(t, []byte(`{"model":"s","max_tokens":1,"messages":[],"x":`+nested+`}`), walkBody)
	}
}
