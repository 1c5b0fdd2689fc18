package strategyfile

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/faultbench/faultbench/recovery"
)

// scalar returns a scalar node's text, or an error for anything else.
func scalar(n ast.Node, want string) (string, error) {
	switch x := n.(type) {
	case *ast.StringNode:
		return x.Value, nil
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode:
		return x.GetToken().Value, nil
	case *ast.LiteralNode:
		return x.Value.Value, nil
	}
	return "", badValue(n, "want %s, got %s", want, describe(n))
}

// duration is a time.Duration written "500ms", "32s" or "6h" (0 alone is
// allowed too); any other bare number is an error that shows the fix.
type duration time.Duration

// bareNumber is a plain number, which is no duration (but for 0).
var bareNumber = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

func (d *duration) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "a duration such as 500ms or 32s")
	if err != nil {
		return err
	}
	if s == "0" {
		*d = 0
		return nil
	}
	if bareNumber.MatchString(s) {
		return badValue(n, "%s has no unit: write %ss (or ms, m, h)", clip(s, maxQuoted), clip(s, maxQuoted))
	}
	v, perr := time.ParseDuration(s)
	if perr != nil || v < 0 {
		return badValue(n, "want a duration such as 500ms or 32s, got %s", short(s))
	}
	*d = duration(v)
	return nil
}

// kind is a recovery.Kind by its docs/classification.md name.
type kind recovery.Kind

func (k *kind) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "a kind")
	if err != nil {
		return err
	}
	if !slices.Contains(recovery.Kinds(), recovery.Kind(s)) {
		return badValue(n, "unknown kind %s (known: %s)", short(s), kindNames())
	}
	*k = kind(s)
	return nil
}

func kindNames() string {
	var names []string
	for _, k := range recovery.Kinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

// jitter is a recovery.Jitter mode.
type jitter recovery.Jitter

var jitterModes = []recovery.Jitter{recovery.JitterNone, recovery.JitterPositive, recovery.JitterNegative, recovery.JitterSymmetric, recovery.JitterFull}

func (j *jitter) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "a jitter mode")
	if err != nil {
		return err
	}
	if !slices.Contains(jitterModes, recovery.Jitter(s)) {
		return badValue(n, "unknown jitter %s (known: none, positive, negative, symmetric, full)", short(s))
	}
	*j = jitter(s)
	return nil
}

// shouldRetry is a recovery.ShouldRetryMode.
type shouldRetry recovery.ShouldRetryMode

var shouldRetryModes = []recovery.ShouldRetryMode{recovery.ShouldRetryHonor, recovery.ShouldRetryIgnore, recovery.ShouldRetryHonorExceptOverloaded}

func (m *shouldRetry) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "honor, ignore or honor-except-overloaded")
	if err != nil {
		return err
	}
	if !slices.Contains(shouldRetryModes, recovery.ShouldRetryMode(s)) {
		return badValue(n, "unknown x-should-retry mode %s (known: honor, ignore, honor-except-overloaded)", short(s))
	}
	*m = shouldRetry(s)
	return nil
}

// aboveCap is what to do when the server asks for more than the cap.
type aboveCap string

func (a *aboveCap) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "wait, give_up, fallback or backoff")
	if err != nil {
		return err
	}
	if s != "wait" && s != "give_up" && s != "fallback" && s != "backoff" {
		return badValue(n, "want wait, give_up, fallback or backoff, got %s", short(s))
	}
	*a = aboveCap(s)
	return nil
}

// honor is how retry-after is read: true, false or seconds_only.
type honor recovery.RetryAfterMode

func (h *honor) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "true, false or seconds_only")
	if err != nil {
		return err
	}
	switch s {
	case "true":
		*h = honor(recovery.RetryAfterHonor)
	case "false":
		*h = honor(recovery.RetryAfterIgnore)
	case string(recovery.RetryAfterSecondsOnly):
		*h = honor(recovery.RetryAfterSecondsOnly)
	default:
		return badValue(n, "want true, false or seconds_only, got %s", short(s))
	}
	return nil
}

// authMode is what a 401 does.
type authMode recovery.AuthMode

func (a *authMode) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "stop, refresh or within_attempts")
	if err != nil {
		return err
	}
	if !slices.Contains(recovery.AuthModes(), recovery.AuthMode(s)) {
		return badValue(n, "want stop, refresh or within_attempts, got %s", short(s))
	}
	*a = authMode(s)
	return nil
}

// status is an HTTP status (429) or a class of them (5xx).
type status []int

func (st *status) UnmarshalYAML(n ast.Node) error {
	s, err := scalar(n, "a status such as 429 or 5xx")
	if err != nil {
		return err
	}
	if len(s) == 3 && strings.HasSuffix(s, "xx") && s[0] >= '1' && s[0] <= '5' {
		lo := int(s[0]-'0') * 100
		*st = recovery.StatusRange(lo, lo+99)
		return nil
	}
	v, perr := strconv.Atoi(s)
	if perr != nil || v < 100 || v > 599 {
		return badValue(n, "want a status from 100 to 599 or a class such as 5xx, got %s", short(s))
	}
	*st = status{v}
	return nil
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
