package yamlfile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/parser"

	"github.com/faultbench/faultbench/internal/yamlfile"
)

func TestCheckRefuses(t *testing.T) {
	deepBlock := ""
	for i := range yamlfile.MaxDepth + 1 {
		deepBlock += strings.Repeat("  ", i) + "k:\n"
	}
	var keys strings.Builder
	keys.WriteString("models:\n")
	for i := range yamlfile.MaxKeys + 1 {
		fmt.Fprintf(&keys, "  m%d: {context_window: 1, max_output: 1}\n", i)
	}
	for _, c := range []struct {
		name, data string
		want       error
		line       int
	}{
		{"brackets", "a: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), yamlfile.ErrTooDeep, 1},
		{"braces", "a:\n  b: " + strings.Repeat("{a: ", 70), yamlfile.ErrTooDeep, 2},
		{"brackets over lines", "a: [\n" + strings.Repeat("[\n", 70), yamlfile.ErrTooDeep, yamlfile.MaxDepth},
		{"dashes", strings.Repeat("- ", yamlfile.MaxDepth+1) + "x", yamlfile.ErrTooDeep, 1},
		{"indentation", deepBlock, yamlfile.ErrTooDeep, yamlfile.MaxDepth + 1},
		{"keys", keys.String(), yamlfile.ErrTooManyKeys, yamlfile.MaxKeys + 2},
		{"NUL", "name: a\nPATH=/bin\x00HOME=/root\x00", yamlfile.ErrNotText, 2},
		{"not UTF-8", "name: \xff\xfe", yamlfile.ErrNotText, 1},
		{"size", strings.Repeat("#", yamlfile.MaxBytes+1), yamlfile.ErrTooLarge, 0},
	} {
		p := yamlfile.Check([]byte(c.data))
		if p == nil || !errors.Is(p, c.want) || p.Line != c.line {
			t.Errorf("%s: got %v (line %d), want %v at line %d", c.name, p, lineOf(p), c.want, c.line)
		}
		if p != nil && strings.Contains(p.Msg, "PATH") {
			t.Errorf("%s: the message quotes the file: %s", c.name, p.Msg)
		}
	}
}

func lineOf(p *yamlfile.Problem) int {
	if p == nil {
		return 0
	}
	return p.Line
}

func TestCheckAccepts(t *testing.T) {
	var groups strings.Builder
	groups.WriteString("turn:\n  messages:\n")
	for range 40_000 {
		groups.WriteString("    - {count: 2, tokens: 1000}\n")
	}
	for _, c := range []struct{ name, data string }{
		{"brackets in strings", "a: \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"\n" +
			"b: '{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{'\n"},
		{"brackets in a block scalar", "a: |\n  " + strings.Repeat("[", 100) + "\nb: 1\n"},
		{"brackets in a comment", "a: 1 # " + strings.Repeat("[", 100) + "\n"},
		{"brackets in a plain string", "message: see " + strings.Repeat("[", 100) + "\n"},
		{"40,000 message groups", groups.String()},
		{"many keys in many mappings", strings.Repeat("- a: 1\n  b: 2\n", 10_000)},
	} {
		if p := yamlfile.Check([]byte(c.data)); p != nil {
			t.Errorf("%s: refused: %v (line %d)", c.name, p, p.Line)
		}
	}
}

// Every YAML file the project ships passes.
func TestCheckAcceptsShippedFiles(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../scenarios", "../../strategies"} {
		found, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		files = append(files, found...)
	}
	if len(files) == 0 {
		t.Fatal("no shipped YAML files found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if p := yamlfile.Check(data); p != nil {
			t.Errorf("%s:%d: %v", f, p.Line, p)
		}
		if _, err := parser.ParseBytes(data, 0); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
