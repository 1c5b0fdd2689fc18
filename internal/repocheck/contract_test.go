package repocheck

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
	"github.com/faultbench/faultbench/scenario"
)

// tagNames returns the names a struct type's fields take in the given
// encoding (json or yaml), descending into nested structs, slices and maps
// of structs; "-" and untagged fields are skipped.
func tagNames(t reflect.Type, key string) []string {
	var out []string
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get(key), ",")
			if name == "" || name == "-" {
				continue
			}
			out = append(out, name)
			walk(f.Type)
		}
	}
	walk(t)
	return out
}

// documented fails t for every name that the docs page does not show as
// code (`name`, or inside a code span or block).
func documented(t *testing.T, page string, what string, names []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root(t), "docs", page))
	if err != nil {
		t.Fatal(err)
	}
	code := codeText(string(data))
	for _, n := range names {
		if !containsWord(code, n) {
			t.Errorf("docs/%s does not document %s %q: a user cannot learn it without the source", page, what, n)
		}
	}
}

// codeText returns the text of a Markdown page's code spans and blocks.
func codeText(md string) string {
	var b strings.Builder
	fenced := false
	sc := bufio.NewScanner(strings.NewReader(md))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			b.WriteString(line + "\n")
			continue
		}
		parts := strings.Split(line, "`")
		for i := 1; i < len(parts); i += 2 {
			b.WriteString(parts[i] + "\n")
		}
	}
	return b.String()
}

// containsWord reports whether s holds w not as part of a longer name.
func containsWord(s, w string) bool {
	isName := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isName(s[j-1])
		after := j+len(w) == len(s) || !isName(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

// TestDocsCoverTheContracts fails when a key of the machine contract, a
// scenario field or a strategy field exists in the code but not in docs/.
func TestDocsCoverTheContracts(t *testing.T) {
	documented(t, "reports.md", "the JSON key", tagNames(reflect.TypeFor[ledger.Report](), "json"))
	documented(t, "reports.md", "the journal key", tagNames(reflect.TypeFor[mockllm.Entry](), "json"))
	documented(t, "scenario-format.md", "the scenario field", tagNames(reflect.TypeFor[scenario.Scenario](), "yaml"))

	var keys []string
	sc := bufio.NewScanner(bytes.NewReader(strategyfile.Marshal(recovery.Classifying())))
	for sc.Scan() {
		if k, _, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":"); ok && !strings.HasPrefix(k, "#") {
			keys = append(keys, k)
		}
	}
	if len(keys) < 20 {
		t.Fatalf("strategyfile.Marshal wrote %d keys; the check needs it to spell out every field", len(keys))
	}
	documented(t, "strategies.md", "the strategy field", keys)
}

// TestDocumentedSeesMissingNames guards the check itself.
func TestDocumentedSeesMissingNames(t *testing.T) {
	code := codeText("a `steps` b\n```\nloop_warnings: 1\n```\nat_ms in prose\n")
	for w, want := range map[string]bool{"steps": true, "loop_warnings": true, "at_ms": false, "loop": false} {
		if got := containsWord(code, w); got != want {
			t.Errorf("containsWord(%q) = %v, want %v", w, got, want)
		}
	}
}
