package gendoc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The markers around a generated region, each on a line of its own.
const (
	beginPrefix = "<!-- generated:"
	beginSuffix = " -->"
	endMarker   = "<!-- end generated -->"
)

// ErrNoRegion reports a file without the named region.
var ErrNoRegion = errors.New("gendoc: no such generated region")

// bounds returns where the body of region name starts and ends in doc:
// the line after its begin marker, and the start of its end marker's line.
func bounds(doc []byte, name string) (start, end int, err error) {
	begin := []byte(beginPrefix + name + beginSuffix + "\n")
	i := bytes.Index(doc, begin)
	if i < 0 || (i > 0 && doc[i-1] != '\n') {
		return 0, 0, fmt.Errorf("%w: %q", ErrNoRegion, name)
	}
	if bytes.Count(doc, begin) > 1 {
		return 0, 0, fmt.Errorf("gendoc: region %q is marked twice", name)
	}
	start = i + len(begin)
	j := bytes.Index(doc[start:], []byte("\n"+endMarker))
	switch {
	case bytes.HasPrefix(doc[start:], []byte(endMarker)):
		return start, start, nil
	case j < 0:
		return 0, 0, fmt.Errorf("gendoc: region %q has no %s", name, endMarker)
	}
	end = start + j + 1
	if k := bytes.Index(doc[start:end], []byte(beginPrefix)); k >= 0 {
		return 0, 0, fmt.Errorf("gendoc: region %q is not closed before the next one begins", name)
	}
	return start, end, nil
}

// Region returns the body of region name in doc, without its markers.
func Region(doc []byte, name string) (string, error) {
	start, end, err := bounds(doc, name)
	if err != nil {
		return "", err
	}
	return string(doc[start:end]), nil
}

// Replace returns doc with the body of region name replaced by body (a
// final newline is added when body lacks one).
func Replace(doc []byte, name, body string) ([]byte, error) {
	start, end, err := bounds(doc, name)
	if err != nil {
		return nil, err
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	out := make([]byte, 0, len(doc)-(end-start)+len(body))
	out = append(out, doc[:start]...)
	out = append(out, body...)
	return append(out, doc[end:]...), nil
}

// Check compares region name of the file at path with got. With update it
// rewrites the region instead; otherwise a difference fails t, naming
// the first line that differs and the command that rewrites it.
func Check(t testing.TB, path, name, got string, update bool, command string) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != "" && !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	if update {
		out, err := Replace(doc, name, got)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, doc) {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote %s in %s", name, path)
		}
		return
	}
	want, err := Region(doc, name)
	if err != nil {
		t.Fatal(err)
	}
	if want != got {
		t.Errorf("%s's generated region %q is out of date: %s\nrewrite it with: %s\n--- now the code writes:\n%s",
			path, name, firstDifference(want, got), command, got)
	}
}

// firstDifference names the first line where two texts differ.
func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y || i >= len(al) || i >= len(bl) {
			return fmt.Sprintf("line %d of the region is %q, the code writes %q", i+1, x, y)
		}
	}
	return "they differ"
}
