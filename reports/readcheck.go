package reports

import (
	"io"
	"slices"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
)

// checkRaw walks one value encoding/json has found well-formed (raw, at
// offset base of the text) for what it would take without a word: a key
// twice in one object, and a negative number. It returns where the value
// of a top-level "outcome" key starts in raw (0 when there is none).
func (d *docReader) checkRaw(raw []byte, base int64, path string) (outcomeAt int, err error) {
	d.scan.Reset(raw)
	w := rawWalk{s: &d.scan}
	w.walk(path, 0)
	if w.at < 0 {
		return w.outcomeAt, nil
	}
	return 0, d.fail(base+int64(w.at), "%s: %s", w.path, w.what)
}

// rawWalk is one checkRaw: the first fault found (at ≥ 0), and where the
// outcome is.
type rawWalk struct {
	s         *jsonscan.Scanner
	at        int
	path      string
	what      string
	outcomeAt int
}

// walk checks the value at the scanner, path naming it, depth its
// nesting below the value checkRaw was given. It stops at the first fault.
func (w *rawWalk) walk(path string, depth int) {
	if depth == 0 {
		w.at = -1
	}
	s := w.s
	switch s.Peek() {
	case '{':
		s.Enter()
		var keys []string
		var many map[string]bool // past 32 keys: a forged object of many is checked in linear time
		for w.at < 0 && s.More() {
			at := s.Pos() + 1
			key := string(s.Key())
			dup := false
			if many != nil {
				dup = many[key]
				many[key] = true
			} else {
				dup = slices.Contains(keys, key)
				if keys = append(keys, key); len(keys) > 32 {
					many = map[string]bool{}
					for _, k := range keys {
						many[k] = true
					}
				}
			}
			if dup {
				w.at, w.path, w.what = at, path, "the key "+keyName(key)+" twice in one object"
				return
			}
			if depth == 0 && key == "outcome" {
				s.Peek()
				w.outcomeAt = s.Pos()
			}
			w.walk(path+"."+keyName(key), depth+1)
		}
	case '[':
		s.Enter()
		for i := 0; w.at < 0 && s.More(); i++ {
			w.walk(path+"["+strconv.Itoa(i)+"]", depth+1)
		}
	case '-':
		w.at, w.path, w.what = s.Pos(), path, "a negative number; a report's counts, durations, tokens and dollars never are"
	default:
		s.Skip()
	}
}

// keyName names a key in an error: a report's own keys (lower case,
// digits and underscores, at most 40 bytes) as they are, any other as
// "(a key)", so that an error never quotes what a file holds.
func keyName(key string) string {
	if len(key) == 0 || len(key) > 40 {
		return "(a key)"
	}
	for _, c := range []byte(key) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return "(a key)"
		}
	}
	return key
}

// lineReader passes a reader through and keeps where its lines begin,
// for the line and column of an offset: the newlines since the last
// forget, and how many came before.
type lineReader struct {
	r       io.Reader
	read    int64
	nl      []int64 // offsets of the newlines kept
	dropped int     // newlines forgotten
	lastNL  int64   // offset of the last newline forgotten, -1 for none
	started bool
}

func (l *lineReader) Read(p []byte) (int, error) {
	if !l.started {
		l.started, l.lastNL = true, -1
	}
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		if c == '\n' {
			l.nl = append(l.nl, l.read+int64(i))
		}
	}
	l.read += int64(n)
	return n, err
}

// forget drops the newlines before offset: no error will be placed
// before it.
func (l *lineReader) forget(offset int64) {
	i, _ := slices.BinarySearch(l.nl, offset)
	if i == 0 {
		return
	}
	l.dropped += i
	l.lastNL = l.nl[i-1]
	l.nl = append(l.nl[:0], l.nl[i:]...)
}

// position is the line and column, from 1, of the byte at offset.
func (l *lineReader) position(offset int64) (line, col int) {
	if !l.started {
		l.lastNL = -1
	}
	i, _ := slices.BinarySearch(l.nl, offset)
	last := l.lastNL
	if i > 0 {
		last = l.nl[i-1]
	}
	return l.dropped + i + 1, int(offset - last)
}
