package strategyfile_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
)

// normal is s as the engine runs it (Effective), an empty list of
// statuses or fallback kinds as nil: both mean none.
func normal(s recovery.Strategy) recovery.Strategy {
	s = s.Effective()
	if len(s.RetryStatuses) == 0 {
		s.RetryStatuses = nil
	}
	if len(s.Fallback.On) == 0 {
		s.Fallback.On = nil
	}
	return s
}

// Every preset reads back as itself: the engine runs the same strategy,
// and it prints the same file.
func TestEveryPresetRoundTrips(t *testing.T) {
	for _, p := range recovery.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			data := strategyfile.Marshal(p)
			got, err := strategyfile.Parse(p.Name+".yaml", data)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if !reflect.DeepEqual(normal(got), normal(p)) {
				t.Fatalf("round trip changed the strategy:\n got %+v\nwant %+v\n%s", normal(got), normal(p), data)
			}
			if again := strategyfile.Marshal(got); !bytes.Equal(again, data) {
				t.Fatalf("printed again, it differs:\n%s\nthe first time:\n%s", again, data)
			}
		})
	}
}

func TestBaseThenOverrides(t *testing.T) {
	s, err := strategyfile.Parse("mine.yaml", []byte(`
base: claude-code
attempts: 4
backoff: {cap: 10s}
retry_statuses: [429, 5xx]
fallback: {on: [not_found]}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := recovery.ClaudeCode()
	want.Name, want.Description = "mine", ""
	want.Attempts = 4
	want.Backoff.Cap = 10 * time.Second
	want.RetryStatuses = append([]int{429}, recovery.StatusRange(500, 599)...)
	want.Fallback.On = []recovery.Kind{recovery.KindNotFound}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("got %+v\nwant %+v", s, want)
	}
}

func TestWithoutBaseFieldsTakeTheirZeroValue(t *testing.T) {
	s, err := strategyfile.Parse("x.yaml", []byte("name: plain\nclassify: true\nretry: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "plain" || !s.Classify || s.Retry == nil || len(s.Retry) != 0 || s.Attempts != 0 || s.RetryAfter.HonorsHeader() {
		t.Fatalf("got %+v", s)
	}
}

func TestTheStrategiesFolderLoads(t *testing.T) {
	got, err := strategyfile.LoadDir("../../strategies")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 3 {
		t.Fatalf("%d strategies in strategies/", len(got))
	}
	byName := map[string]recovery.Strategy{}
	for _, s := range got {
		byName[s.Name] = s
	}
	p := byName["claude-code-persistent"]
	if !p.Persistent || p.Heartbeat != 30*time.Second || p.WaitBudget != 6*time.Hour || !p.RetryAfter.RateLimitReset || p.Attempts != 11 {
		t.Fatalf("claude-code-persistent: %+v", p)
	}
	b := byName["classify-budgeted"]
	if b.RetryAfter.AboveCap != recovery.AboveCapGiveUp || b.RetryAfter.Cap != 30*time.Second || b.TurnAttempts != 8 || !b.Compaction.Enabled {
		t.Fatalf("classify-budgeted: %+v", b)
	}
}

func TestProblemsNameFileLineAndField(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"unknown field", "base: classify\nattempt: 3\n", []string{"bad.yaml:2:", "attempt"}},
		{"unknown kind", "retry:\n  - rate_limit\n  - overload\n", []string{"bad.yaml:3:", "retry[1]", `unknown kind "overload"`}},
		{"bad duration", "backoff:\n  base: fast\n", []string{"bad.yaml:2:", "backoff.base", `"fast"`}},
		{"bad jitter", "backoff: {jitter: sideways}\n", []string{"bad.yaml:1:", "backoff.jitter"}},
		{"bad status", "retry_statuses: [429, 600]\n", []string{"bad.yaml:1:", "retry_statuses[1]"}},
		{"unknown base", "name: x\nbase: claude\n", []string{"bad.yaml:2:", "base", `unknown preset "claude"`}},
		{"factor below 1", "backoff:\n  factor: 0.5\n", []string{"bad.yaml:2:", "backoff.factor", ">= 1"}},
		{"negative attempts", "attempts: -1\n", []string{"bad.yaml:1:", "attempts"}},
		{"ratio above 1", "compaction:\n  learned_window_ratio: 1.5\n", []string{"bad.yaml:2:", "compaction.learned_window_ratio"}},
		{"wrong type", "classify: maybe\n", []string{"bad.yaml:1:"}},
		{"empty", "", []string{"bad.yaml", "empty"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := strategyfile.Parse("bad.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			var fe *strategyfile.Error
			if !errors.As(err, &fe) {
				t.Errorf("%T is not an *Error", err)
			}
		})
	}
}

// Five mistakes are five errors of one run, each with its line, its field
// path and, for a misspelt field, the field meant — as the scenario loader
// reports them.
func TestEveryProblemAtOnce(t *testing.T) {
	text := "name: mine\nbase: classify\natempts: 3\nretry_after:\n  honour: true\n  cap: 30\n" +
		"backoff: {factor: 0.5}\nloop_guard: {windw: 3}\nstep_cap: -1\n"
	_, err := strategyfile.Parse("mine.yaml", []byte(text))
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		`mine.yaml:3:1: atempts: unknown field "atempts"; did you mean "attempts"?`,
		`mine.yaml:5:3: retry_after.honour: unknown field "honour"; did you mean "honor"?`,
		`mine.yaml:6:8: retry_after.cap: 30 has no unit: write 30s (or ms, m, h)`,
		`mine.yaml:7:19: backoff.factor: must be >= 1`,
		`mine.yaml:8:14: loop_guard.windw: unknown field "windw"; did you mean "window"?`,
		`mine.yaml:9:11: step_cap: must be >= 0, got -1`,
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d: %q, want %q", i, lines[i], w)
		}
	}
	var fe *strategyfile.Error
	if !errors.As(err, &fe) || fe.Field != "atempts" {
		t.Errorf("errors.As finds %+v, want the first", fe)
	}
	// A field far from every known one lists them.
	_, err = strategyfile.Parse("x.yaml", []byte("zzzzzz: 1\n"))
	if err == nil || !strings.Contains(err.Error(), "(known fields: adaptive_limiter, adjust, ") {
		t.Errorf("got %v", err)
	}
}

// Marshal writes durations as a person would: whole hours and minutes
// without their zero units, and a zero as 0.
func TestMarshalWritesDurationsShort(t *testing.T) {
	s := recovery.Classifying()
	s.Name = "short"
	s.RetryAfter.Cap = 6 * time.Hour
	s.Backoff.Cap = 90 * time.Second
	s.Backoff.Base = 0
	out := string(strategyfile.Marshal(s))
	for _, want := range []string{"  cap: 6h\n", "  cap: 1m30s\n", "  base: 0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("Marshal has no %q:\n%s", want, out)
		}
	}
}

// A full class of statuses is written as its class, the rest one by one.
func TestFormatStatusesWritesAFullClassAsOneWord(t *testing.T) {
	statuses := []int{429}
	for c := 500; c <= 599; c++ {
		statuses = append(statuses, c)
	}
	statuses = append(statuses, 408)
	got := strings.Join(strategyfile.FormatStatuses(statuses), ",")
	if got != "429,5xx,408" {
		t.Errorf("FormatStatuses = %s, want 429,5xx,408", got)
	}
	if got := strings.Join(strategyfile.FormatStatuses([]int{500, 501}), ","); got != "500,501" {
		t.Errorf("FormatStatuses = %s, want 500,501", got)
	}
}

// A field written with no value (null) keeps the base's value, as a field
// left out does: the file is decoded onto a copy of the base.
func TestANullFieldKeepsTheBase(t *testing.T) {
	s, err := strategyfile.Parse("mine.yaml", []byte("base: claude-code\nattempts:\nbackoff:\n  cap: ~\nretry_after: {cap: 10s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := recovery.ClaudeCode()
	if s.Attempts != want.Attempts || s.Backoff != want.Backoff || s.RetryAfter.Honor != want.RetryAfter.Honor || s.RetryAfter.Cap != 10*time.Second {
		t.Fatalf("got attempts %d, backoff %+v, retry_after %+v; want claude-code's with a cap of 10s", s.Attempts, s.Backoff, s.RetryAfter)
	}
	if recovery.ClaudeCode().RetryAfter.Cap != want.RetryAfter.Cap {
		t.Fatal("decoding wrote over the preset itself")
	}
}
