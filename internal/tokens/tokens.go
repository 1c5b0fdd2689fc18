package tokens

import (
	"strings"
	"sync"
)

// BytesPerToken is the width of one token under the rule.
const BytesPerToken = 4

// Count returns the tokens of one text: ceil(len(s)/4).
func Count(s string) int {
	return (len(s) + BytesPerToken - 1) / BytesPerToken
}

// unit is one synthesised token: four bytes of filler text.
const unit = "tok "

// Text returns a text of exactly n tokens under the rule (n <= 0 gives "").
// Every text is a prefix of one shared filler string, grown (doubling) to
// the longest asked for, so the texts of a thousand scenarios cost the
// memory of the longest one alone.
func Text(n int) string {
	if n <= 0 {
		return ""
	}
	filler.Lock()
	defer filler.Unlock()
	if len(filler.s) < n*len(unit) {
		filler.s = strings.Repeat(unit, max(n, 2*len(filler.s)/len(unit)))
	}
	return filler.s[:n*len(unit)]
}

// filler is the string every Text is cut from.
var filler struct {
	sync.Mutex
	s string
}

// Truncate returns the longest prefix of s that counts at most n tokens.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if max := n * BytesPerToken; len(s) > max {
		return s[:max]
	}
	return s
}
