package mockllm

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// TestReadBodyExactBuffer holds readBody to its promise: a body of a
// declared length ends in a buffer of exactly that length (no second,
// larger buffer for the end of the body), whatever the pieces it arrives
// in, and a body that declares more than it sends costs what it sent.
func TestReadBodyExactBuffer(t *testing.T) {
	for _, n := range []int{1, 511, 512, 4096, maxUpfrontGrow, maxUpfrontGrow + 1, 3*maxUpfrontGrow + 7, 400_000} {
		body := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
		for name, r := range map[string]func() io.Reader{
			"whole":    func() io.Reader { return bytes.NewReader(body) },
			"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(body)) },
			"halves":   func() io.Reader { return iotest.HalfReader(bytes.NewReader(body)) },
			"data+EOF": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(body)) },
		} {
			if name == "one byte" && n > 4096 {
				continue
			}
			got, err := readBody(nil, r(), int64(n))
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("%d bytes, %s: %d bytes read, %v", n, name, len(got), err)
			}
			if cap(got) != n {
				t.Errorf("%d bytes, %s: a buffer of %d", n, name, cap(got))
			}
			chunked, err := readBody(nil, r(), -1)
			if err != nil || !bytes.Equal(chunked, body) {
				t.Fatalf("%d bytes of unknown length, %s: %d bytes read, %v", n, name, len(chunked), err)
			}
		}
	}
	// A pooled buffer large enough is used as it is.
	pooled := make([]byte, 0, 1<<20)
	got, err := readBody(pooled, bytes.NewReader([]byte(`{"a":1}`)), 7)
	if err != nil || string(got) != `{"a":1}` || &got[:1][0] != &pooled[:1][0] {
		t.Errorf("into a pooled buffer: %q, %v, own buffer %v", got, err, &got[:1][0] == &pooled[:1][0])
	}
	// Declared 32 MB, sent one byte: memory follows the bytes received.
	got, err = readBody(nil, bytes.NewReader([]byte("x")), maxBodyBytes)
	if err != nil || string(got) != "x" || cap(got) > maxUpfrontGrow {
		t.Errorf("one byte of a declared 32 MB: %q, %v, a buffer of %d", got, err, cap(got))
	}
	// More bytes than declared are read, not dropped.
	got, err = readBody(nil, bytes.NewReader([]byte("abcdef")), 3)
	if err != nil || string(got) != "abcdef" {
		t.Errorf("more than declared: %q, %v", got, err)
	}
	// The reader's error comes back with what was read before it.
	boom := errors.New("boom")
	got, err = readBody(nil, io.MultiReader(bytes.NewReader([]byte("abc")), iotest.ErrReader(boom)), 10)
	if !errors.Is(err, boom) || string(got) != "abc" {
		t.Errorf("a failing reader: %q, %v", got, err)
	}
}
