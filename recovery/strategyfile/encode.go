package strategyfile

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/faultbench/faultbench/recovery"
)

// Marshal writes s as a strategy file with every field spelt out, in the
// order of recovery.Strategy's fields, so that Parse reads back a
// strategy that behaves the same. An empty mode is written as the mode it
// stands for, a nil Retry list as the transient kinds, the cache's
// default lifetime as 5m; the rest is written as it is, a zero that means
// a default as 0 (docs/strategies.md), so that an edited copy keeps the
// defaults that follow from other fields (persistent's turn_attempts).
func Marshal(s recovery.Strategy) []byte {
	s = s.Clone()
	if s.Retry == nil {
		s.Retry = recovery.TransientKinds()
	}
	if s.ShouldRetry == "" {
		s.ShouldRetry = recovery.ShouldRetryHonor
	}
	for _, b := range []*recovery.Backoff{&s.Backoff, &s.Rounds.Backoff} {
		if b.Jitter == "" {
			b.Jitter = recovery.JitterNone
		}
	}
	if s.RetryAfter.Honor == "" {
		s.RetryAfter.Honor = recovery.RetryAfterIgnore
	}
	if s.RetryAfter.AboveCap == "" {
		s.RetryAfter.AboveCap = recovery.AboveCapWait
	}
	if s.Auth == "" {
		s.Auth = recovery.AuthStop
	}
	if s.Fallback.On == nil {
		s.Fallback.On = []recovery.Kind{}
	}
	if s.PromptCache.Breakpoints == nil {
		s.PromptCache.Breakpoints = []recovery.Breakpoint{}
	}
	s.PromptCache.TTL = s.PromptCache.Lifetime()
	out, err := yaml.MarshalWithOptions(s, encodeOptions()...)
	if err != nil {
		// Every value of a Strategy has a YAML form: an error is a bug here.
		panic("strategyfile: " + err.Error())
	}
	// The encoder quotes the key on, a bool in YAML 1.1; the reader takes
	// it bare, as a person writes it.
	return bytes.Replace(out, []byte("\n  \"on\": "), []byte("\n  on: "), 1)
}

// encodeOptions write the value types in the words Parse reads.
func encodeOptions() []yaml.EncodeOption {
	return []yaml.EncodeOption{
		yaml.Indent(2),
		yaml.CustomMarshaler(func(d time.Duration) ([]byte, error) { return []byte(dur(d)), nil }),
		yaml.CustomMarshaler(func(f float64) ([]byte, error) { return []byte(strconv.FormatFloat(f, 'g', -1, 64)), nil }),
		yaml.CustomMarshaler(func(m recovery.RetryAfterMode) ([]byte, error) { return []byte(honorWords[m]), nil }),
		yaml.CustomMarshaler(func(st []int) ([]byte, error) {
			return []byte("[" + strings.Join(FormatStatuses(st), ", ") + "]"), nil
		}),
	}
}

// dur writes a duration the way Parse reads it: "0", "500ms", "32s", "6h".
func dur(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	s := d.String()
	// time.Duration writes 6h0m0s; trim the zero units for the reader.
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
