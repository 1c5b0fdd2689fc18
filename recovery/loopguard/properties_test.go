package loopguard_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/recovery/loopguard"
)

// genArgs draws a JSON object of a few scalar fields.
func genArgs(t *rapid.T, label string) map[string]any {
	keys := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z]{1,6}`), 1, 5, rapid.ID[string]).Draw(t, label+".keys")
	m := map[string]any{}
	for _, k := range keys {
		m[k] = rapid.OneOf(rapid.Just[any](nil), rapid.Map(rapid.IntRange(-5, 5), func(i int) any { return i }),
			rapid.Map(rapid.StringMatching(`[a-z ]{0,8}`), func(s string) any { return s })).Draw(t, label+"."+k)
	}
	return m
}

// encodeInOrder writes m's keys in the given order, as a client might.
func encodeInOrder(m map[string]any, keys []string) []byte {
	out := []byte("{")
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(m[k])
		out = append(append(append(out, kb...), ':'), vb...)
	}
	return append(out, '}')
}

func TestPropertyFingerprintIgnoresKeyOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := genArgs(t, "args")
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		shuffled := rapid.Permutation(keys).Draw(t, "order")
		a, err := loopguard.Of("tool", encodeInOrder(m, keys))
		if err != nil {
			t.Fatal(err)
		}
		b, err := loopguard.Of("tool", encodeInOrder(m, shuffled))
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Fatalf("key order changed the fingerprint: %s vs %s", a, b)
		}
		// Any change of one value changes it.
		k := rapid.SampledFrom(keys).Draw(t, "changed")
		m[k] = fmt.Sprint(m[k], "!")
		c, _ := loopguard.Of("tool", encodeInOrder(m, keys))
		if c == a {
			t.Fatalf("changing %s kept the fingerprint", k)
		}
	})
}

func TestPropertyWarningComesBeforeBreak(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := loopguard.Config{
			Window:          rapid.IntRange(1, 30).Draw(t, "window"),
			RepeatWarn:      rapid.IntRange(1, 6).Draw(t, "repeat_warn"),
			RepeatBreak:     rapid.IntRange(1, 8).Draw(t, "repeat_break"),
			PingPongWarn:    rapid.IntRange(1, 6).Draw(t, "ping_pong_warn"),
			PingPongBreak:   rapid.IntRange(1, 8).Draw(t, "ping_pong_break"),
			NoProgressWarn:  rapid.IntRange(1, 6).Draw(t, "no_progress_warn"),
			NoProgressBreak: rapid.IntRange(1, 8).Draw(t, "no_progress_break"),
		}
		g := loopguard.New(cfg)
		warned := false
		for i := range rapid.IntRange(1, 60).Draw(t, "calls") {
			call := rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, fmt.Sprintf("call%d", i))
			result := rapid.SampledFrom([]string{"x", "y"}).Draw(t, fmt.Sprintf("result%d", i))
			v := g.Observe(loopguard.Fingerprint(call+":1"), result)
			if v.Level == loopguard.Warn {
				warned = true
				if v.Message == "" {
					t.Fatal("a warning with no message for the model")
				}
			}
			if v.Level == loopguard.Break {
				// A detector whose break is its warn breaks at once, and
				// only such a detector may.
				if v.AtOnce != cfg.AtOnce(v.Detector) {
					t.Fatalf("call %d: %s broke with AtOnce %v; the config says %v", i, v.Detector, v.AtOnce, cfg.AtOnce(v.Detector))
				}
				if !warned && !v.AtOnce {
					t.Fatalf("call %d: %s broke with no warning before", i, v.Detector)
				}
				return
			}
		}
	})
}

func TestPropertyHonestStepsNeverTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := loopguard.New(loopguard.Config{})
		k := rapid.IntRange(1, 200).Draw(t, "steps")
		for i := range k {
			args := fmt.Sprintf(`{"step":%d,"path":"file%d.go"}`, i, i)
			f, err := loopguard.Of(rapid.SampledFrom([]string{"read", "edit", "run"}).Draw(t, fmt.Sprintf("tool%d", i)), []byte(args))
			if err != nil {
				t.Fatal(err)
			}
			if v := g.Observe(f, loopguard.ResultHash(fmt.Sprint("result ", i), false)); v.Level != loopguard.None {
				t.Fatalf("step %d of an honest task of %d distinct steps: %s %s", i, k, v.Level, v.Detector)
			}
		}
	})
}
