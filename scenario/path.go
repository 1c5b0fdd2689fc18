package scenario

import (
	"regexp"
	"strconv"

	"github.com/faultbench/faultbench/internal/excerpt"
)

// Field paths. A struct field or a plain map key is written .name, a list
// element [i], and a map key that is not a plain word ["like.this"].

var plainKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// joinPath appends a struct field name.
func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// keyPath appends a map key, at most maxQuoted bytes of it: a path is
// repeated in error messages, which never copy a file into a log.
func keyPath(path, key string) string {
	if len(key) > maxQuoted {
		return path + "[" + excerpt.Quote(key, maxQuoted) + "]"
	}
	if !plainKey.MatchString(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	return joinPath(path, key)
}

// fieldPath appends a struct field's key as written, at most maxQuoted
// bytes of it (an unknown field's key is the file's text).
func fieldPath(path, key string) string {
	if len(key) > maxQuoted {
		return path + "[" + excerpt.Quote(key, maxQuoted) + "]"
	}
	return joinPath(path, key)
}

// parentPath strips the last element of a path; "" has no parent.
func parentPath(path string) (string, bool) {
	if path == "" {
		return "", false
	}
	last := 0 // where the last element begins
	for i := 0; i < len(path); {
		switch path[i] {
		case '.':
			last = i
			i++
		case '[':
			last = i
			if i+1 < len(path) && path[i+1] == '"' {
				q, err := strconv.QuotedPrefix(path[i+1:])
				if err != nil {
					return "", true
				}
				i += 1 + len(q)
			} else {
				i++
			}
		default:
			i++
		}
	}
	return path[:last], true
}
