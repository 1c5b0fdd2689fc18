package proptest_test

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/internal/leaktest"
	"github.com/faultbench/faultbench/proptest"
	"github.com/faultbench/faultbench/recovery"
)

func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

// declared lists, per property, the presets that break it by design: the
// naive loop, and the policies whose sources retry what the property
// forbids. It is derived from their settings, not from a sample: a preset
// left off the list would fail the gate as soon as rapid met the case.
var declared = map[string][]string{
	// Their retry lists name quota_exhausted: the SDKs, Claude Code and the
	// AI SDK read only the 429, and s11 takes any unlisted type as
	// transient; Codex's rounds resend a 403 (UnexpectedStatus).
	"NeverResendsAfterPermanentError": {"blind", "claude-code", "s11", "sdk-anthropic", "sdk-openai", "codex", "ai-sdk"},
	"NoSleepAfterFinalAttempt":        {"blind"},
	// should_retry: ignore, and 503 is a status they retry (Gemini CLI
	// reads no header at all).
	"ShouldRetryFalseNeverResent": {"blind", "kimi-code", "s11", "gemini-cli", "codex", "ai-sdk", "langchain-js"},
	// Claude Code resends a 401 within its attempts, Codex in a new round.
	"AuthRefreshAtMostOnce": {"blind", "claude-code", "codex"},
	// shed_background: false.
	"BackgroundNeverRetriesOverload": {"blind", "kimi-code", "s11", "sdk-anthropic", "sdk-openai", "gemini-cli", "codex", "ai-sdk", "langchain-js"},
	// s11 falls back on an overflow to a model of the same window, without
	// adjusting or compacting.
	"NoAttemptExceedsWindowAfterOverflow": {"blind", "s11"},
	// s11's escalation is bounded by its 32,768 ceiling alone.
	"MaxTokensWithinOutputLimit": {"s11"},
	// classify's no_progress breaks at once, as the layered agent demo's.
	"LoopGuardWarnsFirst": {"classify", "classify-preflight", "classify-fleet"},
}

// TestPresetsHoldEveryProperty is faultbench's own CI gate on its presets,
// and shows how a user gates theirs: each property over every preset that
// does not break it by design. The properties run side by side: each
// draws from its own rapid source, and under -race this is the longest
// test of the repository.
//
// Under -race it draws raceChecks cases per property, not RAPID_CHECKS:
// the race detector needs the concurrent paths run, not depth, and the
// test line's second command runs the package again without it at full
// depth.
func TestPresetsHoldEveryProperty(t *testing.T) {
	if raceDetector {
		f := flag.Lookup("rapid.checks")
		old := f.Value.String()
		if n, err := strconv.Atoi(old); err == nil && n > raceChecks {
			if err := flag.Set("rapid.checks", strconv.Itoa(raceChecks)); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
		}
	}
	for _, p := range proptest.All() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			var hold []recovery.Strategy
			for _, s := range recovery.Presets() {
				if !slices.Contains(declared[p.Name], s.Name) {
					hold = append(hold, s)
				}
			}
			rapid.Check(t, p.Check(hold...))
		})
	}
}

// raceChecks is the depth of TestPresetsHoldEveryProperty under -race.
const raceChecks = 20

// failing is a rapid.TB that records a failure instead of ending the test.
type failing struct {
	name   string
	failed bool
	msgs   []string
}

func (f *failing) Helper()              {}
func (f *failing) Name() string         { return f.name }
func (f *failing) Logf(string, ...any)  {}
func (f *failing) Log(...any)           {}
func (f *failing) Skipf(string, ...any) {}
func (f *failing) Skip(...any)          {}
func (f *failing) SkipNow()             {}
func (f *failing) Errorf(s string, a ...any) {
	f.failed = true
	f.msgs = append(f.msgs, fmt.Sprintf(s, a...))
}
func (f *failing) Error(a ...any)            { f.failed = true; f.msgs = append(f.msgs, fmt.Sprint(a...)) }
func (f *failing) Fatalf(s string, a ...any) { f.Errorf(s, a...) }
func (f *failing) Fatal(a ...any)            { f.Error(a...) }
func (f *failing) FailNow()                  { f.failed = true }
func (f *failing) Fail()                     { f.failed = true }
func (f *failing) Failed() bool              { return f.failed }

// breaks runs property p on s alone, 100 checks from each of the seeds 1
// to 3 in turn (a fixed search, so the test does not depend on luck) and
// without shrinking, and returns rapid's first failure message, or "" when
// the property held. No fail file is written.
func breaks(t *testing.T, p proptest.Property, s recovery.Strategy) string {
	t.Helper()
	set := func(name, v string) {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = flag.Set(name, old) })
	}
	set("rapid.nofailfile", "true")
	set("rapid.shrinktime", "1ns")
	set("rapid.checks", "100")
	for seed := 1; seed <= 3; seed++ {
		set("rapid.seed", strconv.Itoa(seed))
		f := &failing{name: t.Name()}
		rapid.Check(f, p.Check(s))
		if f.failed {
			return strings.Join(f.msgs, "\n")
		}
	}
	return ""
}

// fleetWithout is classify-fleet with one of its settings changed.
func fleetWithout(change func(*recovery.Strategy)) recovery.Strategy {
	s := recovery.ClassifyFleet()
	s.Name = "fleet-broken"
	change(&s)
	return s
}

// A property fails for a strategy whose settings break it, and the
// failure names the setting; a seeded search, so that the test does not
// depend on luck.
func TestPropertiesFailNamingTheSetting(t *testing.T) {
	computeOnly(t)
	sleepy := recovery.Classifying()
	sleepy.Name, sleepy.SleepAfterFinal, sleepy.Attempts = "sleepy", true, 2
	props := map[string]proptest.Property{}
	for _, p := range proptest.All() {
		props[p.Name] = p
	}
	for _, c := range []struct {
		property string
		s        recovery.Strategy
		setting  string
	}{
		{"NoSleepAfterFinalAttempt", recovery.Blind(), "sleep_after_final: true"},
		{"NoSleepAfterFinalAttempt", sleepy, "sleep_after_final: true"},
		{"NeverResendsAfterPermanentError", recovery.S11(), "which lists quota_exhausted"},
		{"NeverResendsAfterPermanentError", recovery.Blind(), "classify: false"},
		{"ShouldRetryFalseNeverResent", recovery.KimiCode(), "should_retry: ignore"},
		{"BackgroundNeverRetriesOverload", recovery.KimiCode(), "shed_background: false"},
		{"MaxTokensWithinOutputLimit", recovery.S11(), "escalation.unclamped: true"},
		{"AuthRefreshAtMostOnce", recovery.ClaudeCode(), "auth: within_attempts"},
		{"NeverResendsAfterPermanentError", recovery.Codex(), "which lists permission (a new round resends it)"},
		{"NoAttemptExceedsWindowAfterOverflow", recovery.S11(), "adjust.enabled: false and compaction.enabled: false"},
		{"LimiterReleasesIntoRoom", fleetWithout(func(s *recovery.Strategy) { s.RateLimiter.MaxWait = time.Second }), "rate_limiter.max_wait: 1s"},
		{"LoopGuardWarnsFirst", recovery.Classifying(), "loop_guard.no_progress_break: 2, not above no_progress_warn"},
	} {
		t.Run(c.property+"/"+c.s.Name, func(t *testing.T) {
			msg := breaks(t, props[c.property], c.s)
			if !strings.Contains(msg, "the strategy sets ") || !strings.Contains(msg, c.setting) {
				t.Fatalf("want a failure naming %q, got %q", c.setting, msg)
			}
		})
	}
}

// The retry budget is held window by window, not only over the run: the
// fleets span several short windows, their early turns earn retries that
// a window roll must forget (the mutant retry-budget-roll-keeps-requests
// keeps them, and the allowance grows without bound).
func TestRetriesWithinBudgetPerWindow(t *testing.T) {
	var budgets []recovery.Strategy
	for i, b := range []recovery.RetryBudget{
		{Enabled: true, Ratio: 0.5, Window: time.Second},
		{Enabled: true, Ratio: 1, Window: 2 * time.Second},
		{Enabled: true, Ratio: 0.2, MinRetries: 1, Window: 3 * time.Second},
	} {
		s := recovery.Classifying()
		s.Name, s.RetryBudget = fmt.Sprintf("budget-%d", i+1), b
		budgets = append(budgets, s)
	}
	rapid.Check(t, proptest.RetriesWithinBudget(budgets...))
}
