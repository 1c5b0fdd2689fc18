package yamlfile_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/parser"

	"github.com/faultbench/faultbench/internal/yamlfile"
)

// fill repeats unit into a file just under MaxBytes.
func fill(head, unit string) string {
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(unit) <= yamlfile.MaxBytes {
		b.WriteString(unit)
	}
	return b.String()
}

// worstCases are files at the ceilings, shaped for what the parser does
// worst: deep nesting, mappings of MaxKeys keys, long flow mappings.
func worstCases() map[string]string {
	deep := strings.Repeat("[", yamlfile.MaxDepth-2) + strings.Repeat("]", yamlfile.MaxDepth-2)
	var keys strings.Builder
	for i := range yamlfile.MaxKeys {
		fmt.Fprintf(&keys, "  k%d: 1\n", i)
	}
	return map[string]string{
		"deep":      fill("a:\n", "- "+deep+"\n"),
		"keys":      fill("", "- \n"+keys.String()),
		"flowkeys":  flowKeys(),
		"groups":    fill("turn:\n  messages:\n", "    - {count: 2, tokens: 1000}\n"),
		"longlines": fill("", "a: "+strings.Repeat("x", 1<<16)+"\n"),
	}
}

// flowKeys is one flow mapping of distinct keys, just under MaxBytes.
func flowKeys() string {
	var b strings.Builder
	b.WriteString("a: {")
	for i := 0; b.Len() < yamlfile.MaxBytes-16; i++ {
		fmt.Fprintf(&b, "k%07d: 1, ", i)
	}
	b.WriteString("}")
	return b.String()
}

// BenchmarkParseAtCeilings is what the YAML parser costs for the worst
// files the ceilings let through; Check refuses anything worse first.
//
//	go test -run '^$' -bench ParseAtCeilings -benchmem -benchtime 1x ./internal/yamlfile/
func BenchmarkParseAtCeilings(b *testing.B) {
	for name, data := range worstCases() {
		b.Run(name, func(b *testing.B) {
			if p := yamlfile.Check([]byte(data)); p != nil {
				b.Fatalf("refused at line %d: %v", p.Line, p)
			}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				_, _ = parser.ParseBytes([]byte(data), 0)
			}
		})
	}
}
