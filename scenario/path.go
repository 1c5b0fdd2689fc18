package scenario

import (
	"regexp"
	"strconv"
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

// keyPath appends a map key.
func keyPath(path, key string) string {
	if !plainKey.MatchString(key) {
		return path + "[" + strconv.Quote(key) + "]"
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
