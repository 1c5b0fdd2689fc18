package yamlhint

import (
	"math"
	"slices"
	"strings"
)

// Meant is the field a mistyped key was probably meant to be, among
// known: the closest by edit distance, when it is at most a third of its
// length away (and at least one edit is allowed); false when none is that
// close.
func Meant(key string, known []string) (string, bool) {
	best, bestDist := "", math.MaxInt
	for _, name := range known {
		if d := Distance(strings.ToLower(key), name); d < bestDist {
			best, bestDist = name, d
		}
	}
	if best != "" && bestDist <= max(1, len(best)/3) {
		return best, true
	}
	return "", false
}

// Suggestion ends the message of an unknown key: "; did you mean
// "status"?", or the known fields listed when none is close.
func Suggestion(key string, known []string) string {
	if meant, ok := Meant(key, known); ok {
		return "; did you mean " + quote(meant) + "?"
	}
	sorted := slices.Sorted(slices.Values(known))
	return " (known fields: " + strings.Join(sorted, ", ") + ")"
}

func quote(s string) string { return `"` + s + `"` }

// Distance is the Levenshtein distance between a and b, in bytes; names
// over 64 bytes are math.MaxInt apart, so that a hostile key costs little.
func Distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return math.MaxInt
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
