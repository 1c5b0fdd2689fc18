package excerpt

import "testing"

func TestExcerpts(t *testing.T) {
	for _, c := range []struct{ s, clip, quote, prefix string }{
		{"abcd", "abcd", `"abcd"`, "abcd"}, // exactly n bytes: whole
		{"abcdefgh", "abcd… (8 bytes)", `"abcd"… (8 bytes)`, "abcd"},
		{"abcé", "abc… (5 bytes)", `"abc"… (5 bytes)`, "abc"}, // é is two bytes: not cut in half
	} {
		if got := Clip(c.s, 4); got != c.clip {
			t.Errorf("Clip(%q) = %q, want %q", c.s, got, c.clip)
		}
		if got := Quote(c.s, 4); got != c.quote {
			t.Errorf("Quote(%q) = %q, want %q", c.s, got, c.quote)
		}
		if got := Prefix(c.s, 4); got != c.prefix {
			t.Errorf("Prefix(%q) = %q, want %q", c.s, got, c.prefix)
		}
	}
}
