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

// bareNumber is a plain number, which is no duration (but for 0).
var bareNumber = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// String writes d as time.Duration does ("1m30s").
func (d Duration) String() string { return time.Duration(d).String() }

// UnmarshalYAML implements yaml.BytesUnmarshaler of github.com/goccy/go-yaml,
// so a Scenario decoded with that library directly reads durations as the
// loader does: "30s", "1m30s" and "500ms" (time.ParseDuration), or 0. A
// bare number other than 0 is an error that shows the fix ("write 10s"),
// as is a negative duration; null leaves d zero.
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

// noUnit is the error for a duration written as a bare number: text, as
// it was written, needs a unit, and the message shows the fix.
func noUnit(text string) error {
	return fmt.Errorf("%s has no unit: write %ss (or ms, m, h)", clip(text), clip(text))
}

// durationOf reads a duration from a decoded YAML scalar (what goccy/go-yaml
// produces: uint64, int64, float64, string or nil).
func durationOf(v any) (Duration, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case uint64:
		if x == 0 {
			return 0, nil
		}
		return 0, noUnit(strconv.FormatUint(x, 10))
	case int64:
		if x < 0 {
			return 0, fmt.Errorf("duration must not be negative, got %d", x)
		}
		return durationOf(uint64(x))
	case float64:
		return bare(x, strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		s := strings.TrimSpace(x)
		if bareNumber.MatchString(s) {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return 0, fmt.Errorf("bad duration %s: %v", quote(x), err)
			}
			return bare(f, s)
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("want a duration such as \"30s\", \"1m30s\" or \"500ms\", got %s", quote(x))
		}
		if d < 0 {
			return 0, fmt.Errorf("duration must not be negative, got %s", quote(x))
		}
		return Duration(d), nil
	default:
		return 0, fmt.Errorf("want a duration such as \"30s\", got %v", v)
	}
}

// bare is a duration written as the number f, text as written: 0, or an
// error showing the unit it needs.
func bare(f float64, text string) (Duration, error) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("want a duration such as \"30s\", got %s", clip(text))
	case f < 0:
		return 0, fmt.Errorf("duration must not be negative, got %s", clip(text))
	case f == 0:
		return 0, nil
	}
	return 0, noUnit(text)
}
