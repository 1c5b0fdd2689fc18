package scenario

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// maxSeconds is the largest whole number of seconds a Duration holds.
const maxSeconds = math.MaxInt64 / int64(time.Second)

// bareSeconds is a plain number: seconds in a Duration.
var bareSeconds = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// String writes d as time.Duration does ("1m30s").
func (d Duration) String() string { return time.Duration(d).String() }

// UnmarshalYAML implements yaml.BytesUnmarshaler of github.com/goccy/go-yaml,
// so a Scenario decoded with that library directly reads durations as the
// loader does: "30s", "1m30s" and "500ms" (time.ParseDuration), or a bare
// number meaning seconds (30, "30", 1.5). A negative duration is an error;
// null leaves d zero.
func (d *Duration) UnmarshalYAML(data []byte) error {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return err
	}
	x, err := durationOf(v)
	if err != nil {
		return err
	}
	*d = x
	return nil
}

// MarshalYAML implements yaml.InterfaceMarshaler: d is written as "1m30s".
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// durationOf reads a duration from a decoded YAML scalar (what goccy/go-yaml
// produces: uint64, int64, float64, string or nil).
func durationOf(v any) (Duration, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case uint64:
		if x > uint64(maxSeconds) {
			return 0, fmt.Errorf("duration %d s is too large", x)
		}
		return Duration(time.Duration(x) * time.Second), nil
	case int64:
		if x < 0 {
			return 0, fmt.Errorf("duration must not be negative, got %d", x)
		}
		return durationOf(uint64(x))
	case float64:
		return secondsOf(x, strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		s := strings.TrimSpace(x)
		if bareSeconds.MatchString(s) {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return 0, fmt.Errorf("bad duration %s: %v", quote(x), err)
			}
			return secondsOf(f, s)
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("want a duration such as \"30s\", \"1m30s\", \"500ms\" or a number of seconds, got %s", quote(x))
		}
		if d < 0 {
			return 0, fmt.Errorf("duration must not be negative, got %s", quote(x))
		}
		return Duration(d), nil
	default:
		return 0, fmt.Errorf("want a duration such as \"30s\" or a number of seconds, got %v", v)
	}
}

// secondsOf turns f seconds into a Duration; text is how it was written.
func secondsOf(f float64, text string) (Duration, error) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("want a duration, got %s", clip(text))
	case f < 0:
		return 0, fmt.Errorf("duration must not be negative, got %s", clip(text))
	case f >= float64(maxSeconds):
		return 0, fmt.Errorf("duration %s s is too large", clip(text))
	}
	return Duration(time.Duration(math.Round(f * float64(time.Second)))), nil
}
