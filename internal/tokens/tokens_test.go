package tokens

import (
	"strings"
	"testing"
	"unsafe"
)

func TestCountRoundsUp(t *testing.T) {
	cases := map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "Hello, world": 3}
	for in, want := range cases {
		if got := Count(in); got != want {
			t.Errorf("Count(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestTextIsExact(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000, 90000} {
		if got := Count(Text(n)); got != n {
			t.Errorf("Count(Text(%d)) = %d", n, got)
		}
	}
}

func TestTruncate(t *testing.T) {
	s := Text(10)
	if got := Count(Truncate(s, 4)); got != 4 {
		t.Errorf("Truncate to 4 counts %d", got)
	}
	if Truncate(s, 20) != s {
		t.Error("Truncate above the length changed the text")
	}
}

// TestTextSharesOneFiller checks that texts are cut from one string, so
// that their memory does not add up: a shorter text asked for after a
// longer one starts at the same bytes.
func TestTextSharesOneFiller(t *testing.T) {
	long := Text(5000)
	short := Text(7)
	if unsafe.StringData(long) != unsafe.StringData(short) {
		t.Error("Text(7) after Text(5000) is a new string")
	}
	if short != strings.Repeat("tok ", 7) || long != strings.Repeat("tok ", 5000) {
		t.Error("the texts are not the filler")
	}
}
