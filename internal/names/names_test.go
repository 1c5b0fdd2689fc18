package names_test

import (
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/names"
)

func TestCheck(t *testing.T) {
	for _, good := range []string{"classify", "claude-code", "s11", "a.b_c-d", strings.Repeat("a", 64)} {
		if err := names.Check(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
	for _, bad := range []string{"", " ", "a\nb", "A", "-a", "a b", "a\x1b[2J", strings.Repeat("a", 65), "é"} {
		if names.Check(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
