package scenario

import (
	"fmt"
	"maps"
	"slices"

	"github.com/goccy/go-yaml/token"
)

// CheckStrategyNames returns an *Error, with the file and line of the key,
// for every expect block keyed by a name that known does not accept: a
// budget for a strategy that is neither a preset nor one of the run's
// would never be checked (a typo such as "clasify" would switch it off
// unseen). knownNames lists the accepted names for the message. The errors
// are joined as Load joins them; nil when there are none. Every one is bad
// input (exit code 2 in the command line). A scenario with a bad key is
// read again from its file for the key's position; one built in code has
// none.
func CheckStrategyNames(scenarios []*Scenario, known func(name string) bool, knownNames string) error {
	var errs []*Error
	for _, s := range scenarios {
		var pos map[string]token.Position
		for _, name := range slices.Sorted(maps.Keys(s.Expect)) {
			if known(name) {
				continue
			}
			if pos == nil && s.Path != "" {
				if _, d, err := loadFile(s.Path); err == nil {
					pos = d.pos
				}
			}
			path := keyPath("expect", name)
			e := &Error{File: s.Path, Field: path,
				Msg: fmt.Sprintf("no strategy is called %q, so this budget would never be checked (known: %s)", name, knownNames)}
			if at, ok := pos[path]; ok {
				e.Line, e.Column = at.Line, at.Column
			}
			errs = append(errs, e)
		}
	}
	return join(errs)
}
