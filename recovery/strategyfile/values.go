package strategyfile

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/faultbench/faultbench/recovery"
)

// A strategy file is decoded straight onto a recovery.Strategy; the value
// types below are read from their YAML words by the functions of readers,
// which the decoder calls through yaml.CustomUnmarshaler and the checker
// (check.go) calls on each node, for its line. Every other field is a
// bool, a number or a string, which the decoder reads as it is.

// reader reads one value from its node; an error is a *valueError.
type reader func(n ast.Node) (any, error)

// readers are the value types whose words the file format defines, by Go
// type.
var readers = map[reflect.Type]reader{
	reflect.TypeFor[time.Duration]():            readDuration,
	reflect.TypeFor[recovery.Kind]():            readKind,
	reflect.TypeFor[recovery.Jitter]():          readJitter,
	reflect.TypeFor[recovery.ShouldRetryMode](): readShouldRetry,
	reflect.TypeFor[recovery.AboveCap]():        readAboveCap,
	reflect.TypeFor[recovery.RetryAfterMode]():  readHonor,
	reflect.TypeFor[recovery.AuthMode]():        readAuth,
	reflect.TypeFor[recovery.Breakpoint]():      readBreakpoint,
	reflect.TypeFor[[]int]():                    readStatuses,
}

// decodeOptions are the decoder's options: unknown fields refused, and the
// readers for their types.
func decodeOptions() []yaml.DecodeOption {
	return []yaml.DecodeOption{
		yaml.DisallowUnknownField(),
		custom[time.Duration](), custom[recovery.Kind](), custom[recovery.Jitter](),
		custom[recovery.ShouldRetryMode](), custom[recovery.AboveCap](),
		custom[recovery.RetryAfterMode](), custom[recovery.AuthMode](),
		custom[recovery.Breakpoint](), custom[[]int](),
	}
}

// custom makes T's reader a decoder option. The decoder hands it the
// value's YAML text, which is parsed again for its node: the checker has
// already read each value at its own place in the file, so an error here
// does not lose a line.
func custom[T any]() yaml.DecodeOption {
	read := readers[reflect.TypeFor[T]()]
	return yaml.CustomUnmarshaler(func(dst *T, b []byte) error {
		f, err := parser.ParseBytes(b, 0)
		if err != nil {
			return err
		}
		if len(f.Docs) == 0 || f.Docs[0].Body == nil {
			return nil
		}
		v, err := read(f.Docs[0].Body)
		if err != nil {
			return err
		}
		*dst = v.(T)
		return nil
	})
}

// scalar returns a scalar node's text, or an error for anything else.
func scalar(n ast.Node, want string) (string, error) {
	switch x := n.(type) {
	case *ast.StringNode:
		return x.Value, nil
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode:
		return x.GetToken().Value, nil
	case *ast.LiteralNode:
		return x.Value.Value, nil
	case *ast.TagNode:
		return scalar(x.Value, want)
	}
	return "", badValue(n, "want %s, got %s", want, describe(n))
}

// bareNumber is a plain number, which is no duration (but for 0).
var bareNumber = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// readDuration reads a time.Duration written "500ms", "32s" or "6h" (0
// alone is allowed too); any other bare number is an error that shows the
// fix.
func readDuration(n ast.Node) (any, error) {
	s, err := scalar(n, "a duration such as 500ms or 32s")
	if err != nil {
		return nil, err
	}
	if s == "0" {
		return time.Duration(0), nil
	}
	if bareNumber.MatchString(s) {
		return nil, badValue(n, "%s has no unit: write %ss (or ms, m, h)", clip(s, maxQuoted), clip(s, maxQuoted))
	}
	v, perr := time.ParseDuration(s)
	if perr != nil || v < 0 {
		return nil, badValue(n, "want a duration such as 500ms or 32s, got %s", short(s))
	}
	return v, nil
}

// oneOf reads a word that must be one of known; what names it in errors
// ("kind"), after its article a.
func oneOf[T ~string](n ast.Node, a, what string, known []T) (any, error) {
	words := make([]string, len(known))
	for i, k := range known {
		words[i] = string(k)
	}
	s, err := scalar(n, a+" "+what)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(known, T(s)) {
		return nil, badValue(n, "unknown %s %s (known: %s)", what, short(s), strings.Join(words, ", "))
	}
	return T(s), nil
}

// readKind reads a recovery.Kind by its docs/classification.md name.
func readKind(n ast.Node) (any, error) { return oneOf(n, "a", "kind", recovery.Kinds()) }

var jitterModes = []recovery.Jitter{recovery.JitterNone, recovery.JitterPositive, recovery.JitterNegative, recovery.JitterSymmetric, recovery.JitterFull}

func readJitter(n ast.Node) (any, error) { return oneOf(n, "a", "jitter", jitterModes) }

var shouldRetryModes = []recovery.ShouldRetryMode{recovery.ShouldRetryHonor, recovery.ShouldRetryIgnore, recovery.ShouldRetryHonorExceptOverloaded}

func readShouldRetry(n ast.Node) (any, error) {
	return oneOf(n, "an", "x-should-retry mode", shouldRetryModes)
}

func readAboveCap(n ast.Node) (any, error) {
	return oneOf(n, "an", "above_cap action", recovery.AboveCaps())
}

func readAuth(n ast.Node) (any, error) { return oneOf(n, "an", "auth mode", recovery.AuthModes()) }

func readBreakpoint(n ast.Node) (any, error) {
	return oneOf(n, "a", "cache breakpoint", []recovery.Breakpoint{recovery.BreakpointSystem, recovery.BreakpointLastUser})
}

// honorWords are how a file writes each way of reading retry-after.
var honorWords = map[recovery.RetryAfterMode]string{
	recovery.RetryAfterHonor:       "true",
	recovery.RetryAfterIgnore:      "false",
	recovery.RetryAfterSecondsOnly: string(recovery.RetryAfterSecondsOnly),
}

// readHonor reads how retry-after is read: true, false or seconds_only.
func readHonor(n ast.Node) (any, error) {
	s, err := scalar(n, "true, false or seconds_only")
	if err != nil {
		return nil, err
	}
	for m, w := range honorWords {
		if s == w {
			return m, nil
		}
	}
	return nil, badValue(n, "want true, false or seconds_only, got %s", short(s))
}

// readStatuses reads a list of HTTP statuses (429) and classes of them
// (5xx, every status of the class).
func readStatuses(n ast.Node) (any, error) {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		return nil, badValue(n, "want a list, got %s", describe(n))
	}
	out := []int{}
	for _, v := range seq.Values {
		s, err := scalar(v, "a status such as 429 or 5xx")
		if err != nil {
			return nil, err
		}
		if len(s) == 3 && strings.HasSuffix(s, "xx") && s[0] >= '1' && s[0] <= '5' {
			lo := int(s[0]-'0') * 100
			out = append(out, recovery.StatusRange(lo, lo+99)...)
			continue
		}
		st, perr := strconv.Atoi(s)
		if perr != nil || st < 100 || st > 599 {
			return nil, badValue(v, "want a status from 100 to 599 or a class such as 5xx, got %s", short(s))
		}
		out = append(out, st)
	}
	return out, nil
}

// FormatStatuses writes statuses as a strategy file does: numbers, and a
// class whose every status is listed as one word ("5xx").
func FormatStatuses(statuses []int) []string {
	set := map[int]bool{}
	for _, s := range statuses {
		set[s] = true
	}
	var out []string
	done := map[int]bool{}
	for _, s := range statuses {
		if done[s] {
			continue
		}
		lo := s / 100 * 100
		full := true
		for c := lo; c < lo+100; c++ {
			if !set[c] {
				full = false
				break
			}
		}
		if full {
			for c := lo; c < lo+100; c++ {
				done[c] = true
			}
			out = append(out, fmt.Sprintf("%dxx", lo/100))
			continue
		}
		done[s] = true
		out = append(out, strconv.Itoa(s))
	}
	return out
}
