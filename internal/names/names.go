// Package names holds the rule for the names faultbench uses as keys:
// scenario names (a path segment of the mock's URLs) and strategy names
// (the session key of a run, a column of every report).
package names

import (
	"fmt"
	"regexp"
)

// MaxBytes is the longest name: 64 bytes.
const MaxBytes = 64

// pattern is what a name may be: lower case letters, digits, '.', '_'
// and '-', starting with a letter or digit.
var pattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// Rule says what a valid name is, for error messages.
const Rule = "use lower case letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64 bytes"

// Check returns nil for a valid name, else what is wrong with it, in
// words that never quote more than a short prefix of it.
func Check(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty name")
	case len(name) > MaxBytes:
		return fmt.Errorf("name of %d bytes is too long: %s", len(name), Rule)
	case !pattern.MatchString(name):
		return fmt.Errorf("%q is not a valid name: %s", name, Rule)
	}
	return nil
}
