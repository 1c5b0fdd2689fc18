package wire

import (
	"net/http"
	"strings"
)

// The bounds of the betas a request's journal entry keeps: a hostile
// header cannot grow the journal, whose 200,000 entries must stay within
// the server's memory ceiling. Claude Code's eight betas take 228 bytes.
const (
	MaxBetas     = 32  // names
	MaxBetaBytes = 100 // per name
	MaxBetasLen  = 256 // in all, commas included
)

// Betas reads the anthropic-beta header as the Messages API does: names
// separated by commas, over every line of the header, trimmed, empty ones
// dropped. It returns them joined by commas, at most MaxBetas names of at
// most MaxBetaBytes each and MaxBetasLen bytes in all (a name that would
// pass it, and those after, are left out); "" when the header names none.
func Betas(h http.Header) string {
	var b strings.Builder
	n := 0
	eachBeta(h, func(name string) bool {
		if len(name) > MaxBetaBytes {
			name = name[:MaxBetaBytes]
		}
		need := len(name)
		if n > 0 {
			need++
		}
		if b.Len()+need > MaxBetasLen {
			return false
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(name)
		n++
		return n < MaxBetas
	})
	// A copy of its own length: the builder's buffer may be twice as
	// long, and the journal keeps the string for as long as the entry.
	return strings.Clone(b.String())
}

// HasBeta reports whether the anthropic-beta header names name, among all
// the names it lists (journalled or not).
func HasBeta(h http.Header, name string) bool {
	has := false
	eachBeta(h, func(b string) bool {
		has = b == name
		return !has
	})
	return has
}

// eachBeta calls f with each name the header lists, in order, until f
// returns false.
func eachBeta(h http.Header, f func(string) bool) {
	for _, line := range h["Anthropic-Beta"] {
		for part := range strings.SplitSeq(line, ",") {
			if b := strings.TrimSpace(part); b != "" && !f(b) {
				return
			}
		}
	}
}
