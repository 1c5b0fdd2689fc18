// Package excerpt shortens strings that error messages and the journal
// repeat, so that a long value is named, never copied whole into a log.
package excerpt

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Prefix is the longest prefix of s of at most n bytes that does not cut
// a UTF-8 sequence.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// Clip is s, or its first n bytes and its length when it is longer.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s… (%d bytes)", Prefix(s, n), len(s))
}

// Quote is s quoted, at most n bytes of it, and its length when it is
// longer.
func Quote(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(Prefix(s, n)), len(s))
}
