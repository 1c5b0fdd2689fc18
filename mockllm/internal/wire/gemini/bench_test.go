package gemini

import (
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// BenchmarkDecodeMany decodes an 8 MB body of 200,000 small contents
// (tool calls and their answers, turn by turn): the decoder keeps nothing
// per content, so its bytes allocated per op stay far below the body's.
func BenchmarkDecodeMany(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"contents":[`)
	for i := range 100000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"role":"model","parts":[{"functionCall":{"name":"ls","args":{"d":"."}}}]},`)
		sb.WriteString(`{"role":"user","parts":[{"functionResponse":{"name":"ls","response":{"o":"a.go"}}}]}`)
	}
	sb.WriteString(`]}`)
	body := []byte(sb.String())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		q := wire.Request{Model: "m", HasModel: true}
		if e := (Wire{}).Decode(body, &q); e != nil {
			b.Fatal(e.Message)
		}
	}
}
