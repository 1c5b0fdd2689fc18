package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/token"

	"github.com/faultbench/faultbench/internal/yamlhint"
)

// typoDistance is how far (in edits) a budget's key may be from a known
// strategy's name and still be taken for a misspelling of it.
const typoDistance = 2

// CheckStrategyNames sorts the expect blocks' keys that are not in known.
// A key within a typo of a known name (at most two edits away, or equal
// to it in lower case without '-' and '_') is an error, with the file and
// line of the key and "did you mean": a budget written "clasify" would
// otherwise switch itself off unseen. Every other unknown key is returned
// in unchecked, sorted and once each: a budget for a strategy kept
// elsewhere, which the run cannot check but which is no mistake. The
// errors are joined as Load joins them; every one is bad input (exit code
// 2 in the command line). A scenario with a bad key is read again from
// its file for the key's position; one built in code has none.
func CheckStrategyNames(scenarios []*Scenario, known []string) (unchecked []string, err error) {
	var errs []*Error
	for _, s := range scenarios {
		var pos map[string]token.Position
		for _, name := range slices.Sorted(maps.Keys(s.Expect)) {
			if slices.Contains(known, name) {
				continue
			}
			meant := typoOf(name, known)
			if meant == "" {
				if !slices.Contains(unchecked, name) {
					unchecked = append(unchecked, name)
				}
				continue
			}
			if pos == nil && s.Path != "" {
				if _, d, err := loadFile(s.Path); err == nil {
					pos = d.pos
				}
			}
			path := keyPath("expect", name)
			e := &Error{File: s.Path, Field: path,
				Msg: fmt.Sprintf("no strategy is called %q, so this budget would never be checked; did you mean %q?", name, meant)}
			if at, ok := pos[path]; ok {
				e.Line, e.Column = at.Line, at.Column
			}
			errs = append(errs, e)
		}
	}
	slices.Sort(unchecked)
	return unchecked, join(errs)
}

// typoOf is the known name that name is probably a misspelling of, or "".
func typoOf(name string, known []string) string {
	best, bestDist := "", typoDistance+1
	for _, k := range known {
		if fold(k) == fold(name) {
			return k
		}
		if d := yamlhint.Distance(name, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// fold is a name in lower case without its '-' and '_'.
func fold(name string) string {
	return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(name))
}
