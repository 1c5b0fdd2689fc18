// Package wiretest holds what the wires' tests share: the fuzz corpus of
// request bodies, and the check that a walker reads any valid JSON to its
// end.
package wiretest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// Corpus is every input of mockllm's fuzz corpora (mockllm/testdata/fuzz).
func Corpus(t testing.TB) [][]byte {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	files, err := filepath.Glob(filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", "fuzz", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d corpus files", len(files))
	}
	var out [][]byte
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(raw), "\n") {
			lit, ok := strings.CutPrefix(line, "[]byte(")
			if !ok {
				continue
			}
			b, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, []byte(b))
		}
	}
	return out
}

// CheckWalker holds a wire's walker to encoding/json on a body: walk
// reads b from s and reports whether it stopped at a field error. A valid
// body must be read to its end without a syntax error, or stop at a field
// error.
func CheckWalker(t testing.TB, b []byte, walk func(s *wire.Scanner) (fieldError bool)) {
	t.Helper()
	if !json.Valid(b) {
		return
	}
	s := wire.NewScanner(b)
	stopped := walk(s)
	if s.Bad() || (!stopped && !s.End()) {
		t.Fatalf("body %q: valid JSON, but the walker found a syntax error at %d", b, s.Pos())
	}
}
