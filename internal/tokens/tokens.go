package tokens

import "strings"

// BytesPerToken is the width of one token under the rule.
const BytesPerToken = 4

// Count returns the tokens of one text: ceil(len(s)/4).
func Count(s string) int {
	return (len(s) + BytesPerToken - 1) / BytesPerToken
}

// unit is one synthesised token: four bytes of filler text.
const unit = "tok "

// Text returns a text of exactly n tokens under the rule (n <= 0 gives "").
func Text(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(unit, n)
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
