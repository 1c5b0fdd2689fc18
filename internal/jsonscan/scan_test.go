package jsonscan

import (
	"bytes"
	"testing"
)

func TestPlainFindsEveryStopByte(t *testing.T) {
	for n := 0; n < 20; n++ {
		for at := 0; at <= n; at++ {
			for _, stop := range []byte{'"', '\\', 0x00, 0x1f, 0x0a} {
				b := bytes.Repeat([]byte{'a'}, n)
				want := n
				if at < n {
					b[at], want = stop, at
				}
				if got := plain(b); got != want {
					t.Fatalf("plain(%q) = %d, want %d", b, got, want)
				}
			}
			// Bytes that are not stops, in every lane.
			b := bytes.Repeat([]byte{0x20}, n)
			if at < n {
				b[at] = 0xff
			}
			if got := plain(b); got != n {
				t.Fatalf("plain(%q) = %d, want %d", b, got, n)
			}
		}
	}
}
