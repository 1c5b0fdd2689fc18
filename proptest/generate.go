package proptest

import (
	"fmt"
	"time"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/scenario"
)

// RetryAfters are the retry-after values, in seconds, that Faults carry.
var RetryAfters = []int{1, 5, 120}

// rateLimitReset is when the reset fault says the window opens again,
// relative to the start of the session.
const rateLimitReset = 15 * time.Second

// Faults are the answers a generated rule may give: every error kind of
// docs/classification.md a status can carry, with and without server directives
// (x-should-retry: true on permanent errors too; false only on the 503),
// an overflow that gives no numbers, and transport and stream faults.
//
// The mock gives a rate-limit 429 a retry-after of its own; the faults
// meant to carry no directive, or only the reset headers, remove it.
var Faults = []scenario.Respond{
	{OK: true},
	{Status: 403, Headers: map[string]string{"x-should-retry": "true"}},
	{Status: 429, Message: "You exceeded your current quota, please check your plan and billing details.", Headers: map[string]string{"x-should-retry": "true"}},
	{Status: 500, Headers: map[string]string{"x-should-retry": "true"}},
	{Status: 400, Message: "The input is too long for the model's context window."},
	{Fault: scenario.Fault{Kind: scenario.FaultReset}},
	{Fault: scenario.Fault{Kind: scenario.FaultMalformed}},
	{Fault: scenario.Fault{Kind: scenario.FaultEmpty}},
	{Fault: scenario.Fault{Kind: scenario.FaultCut, After: 3}},
	{Fault: scenario.Fault{Kind: scenario.FaultError, After: 2}},
	{Status: 429, Headers: map[string]string{"retry-after": ""}},
	{Status: 429, Headers: map[string]string{"retry-after": "1"}},
	{Status: 429, Headers: map[string]string{"retry-after": "5"}},
	{Status: 429, Headers: map[string]string{"retry-after": "120"}},
	{Status: 429, Headers: map[string]string{"retry-after-ms": "2500"}},
	{Status: 429, Headers: map[string]string{"retry-after": "", "anthropic-ratelimit-requests-remaining": "0",
		"anthropic-ratelimit-requests-reset": clock.Epoch.Add(rateLimitReset).Format(time.RFC3339)}},
	{Status: 429, Message: "You exceeded your current quota, please check your plan and billing details."},
	{Status: 529},
	{Status: 500},
	{Status: 503, Headers: map[string]string{"x-should-retry": "false"}},
	{Status: 408},
	{Status: 409},
	{Status: 413},
	{Status: 400, Message: "tools.0.input_schema: JSON schema is invalid"},
	{Status: 401},
	{Status: 403},
	{Status: 402},
	{Status: 404},
}

// ServerWaits are the waits Faults may ask for (retry-after and
// retry-after-ms; a rate-limit reset asks at most rateLimitReset).
func ServerWaits() []time.Duration {
	var out []time.Duration
	for _, s := range RetryAfters {
		out = append(out, time.Duration(s)*time.Second)
	}
	return append(out, 2500*time.Millisecond)
}

// Scenario generates small scenarios: one or two models, a turn that may
// overflow the window or need more output than max_tokens, may be marked
// background or have refreshable credentials, and up to five rules drawn
// from Faults, matched by model, attempt and virtual time.
func Scenario() *rapid.Generator[*scenario.Scenario] {
	return rapid.Custom(func(t *rapid.T) *scenario.Scenario {
		window := rapid.IntRange(8000, 40000).Draw(t, "window")
		// A quarter of the turns have an input that fits, but not with
		// max_tokens, by less than leaves the adjustment floor (3,000 and
		// a 1,000 buffer): the case a max_tokens adjustment answers.
		near := rapid.IntRange(0, 3).Draw(t, "near_window") == 0
		maxOut := rapid.IntRange(1000, 8000).Draw(t, "max_output")
		if near {
			maxOut = rapid.IntRange(6000, 8000).Draw(t, "max_output_near")
		}
		models := map[string]scenario.Model{"primary": {ContextWindow: window, MaxOutput: maxOut}}
		var fallback []string
		if rapid.Bool().Draw(t, "backup") {
			models["backup"] = scenario.Model{ContextWindow: window, MaxOutput: maxOut}
			fallback = []string{"backup"}
		}
		count := rapid.IntRange(1, 24).Draw(t, "messages")
		maxTokens := rapid.IntRange(256, maxOut).Draw(t, "max_tokens")
		tokens := rapid.IntRange(count, window*5/4).Draw(t, "message_tokens")
		if near {
			maxTokens = rapid.IntRange(5000, maxOut).Draw(t, "max_tokens_near")
			tokens = max(count, window-maxTokens+rapid.IntRange(1, maxTokens-4500).Draw(t, "over_by"))
		}
		turn := scenario.Turn{
			Model:        "primary",
			Fallback:     fallback,
			MaxTokens:    maxTokens,
			SystemTokens: rapid.IntRange(0, 1000).Draw(t, "system_tokens"),
			Messages:     []scenario.MessageGroup{{Count: count, Tokens: tokens}},
			AnswerTokens: rapid.IntRange(1, maxOut*3/2).Draw(t, "answer_tokens"),
			Background:   rapid.Bool().Draw(t, "background"),
			AuthRefresh:  rapid.Bool().Draw(t, "auth_refresh"),
			Stream:       rapid.Bool().Draw(t, "stream"),
		}
		var rules []scenario.Rule
		for i := range rapid.IntRange(0, 5).Draw(t, "rules") {
			r := scenario.Rule{
				Times:   rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("rule%d.times", i)),
				Respond: rapid.SampledFrom(Faults).Draw(t, fmt.Sprintf("rule%d.respond", i)),
			}
			r.When.Model = rapid.SampledFrom([]string{"", "primary", "backup"}).Draw(t, fmt.Sprintf("rule%d.model", i))
			r.When.Attempt = rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("rule%d.attempt", i))
			r.When.Before = scenario.Duration(time.Duration(rapid.IntRange(0, 40).Draw(t, fmt.Sprintf("rule%d.before_s", i))) * time.Second)
			rules = append(rules, r)
		}
		return &scenario.Scenario{
			Name:        "generated",
			Description: "generated by rapid",
			Models:      models,
			Turn:        turn,
			Compaction:  scenario.Compaction{SummaryTokens: rapid.IntRange(50, 2000).Draw(t, "summary_tokens")},
			Script:      rules,
		}
	})
}

// ToolScenario generates agent turns: one to three tools, each answering
// with a fixed result, a numbered one or an error; a script of tool_use
// rules (all calls in one answer or one per answer in turn, inputs varied
// by step or not, run out after a few uses or never), maybe a model that
// finishes once warned, maybe an overload to recover from first, and maybe
// an answer at the end.
func ToolScenario() *rapid.Generator[*scenario.Scenario] {
	return rapid.Custom(func(t *rapid.T) *scenario.Scenario {
		var tools []scenario.Tool
		for i := range rapid.IntRange(1, 3).Draw(t, "tools") {
			tl := scenario.Tool{Name: fmt.Sprintf("tool%d", i), Result: fmt.Sprintf("result of tool%d", i)}
			switch rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("tool%d.kind", i)) {
			case 1:
				tl.VaryResult = true
			case 2:
				tl.Error = "tool failed"
			}
			tools = append(tools, tl)
		}
		call := func(label string) scenario.ToolUse {
			name := rapid.SampledFrom(tools).Draw(t, label+".tool").Name
			return scenario.ToolUse{Name: name, Input: fmt.Sprintf(`{"arg": %d}`, rapid.IntRange(0, 2).Draw(t, label+".arg"))}
		}
		var rules []scenario.Rule
		if rapid.Bool().Draw(t, "heeds_warning") {
			rules = append(rules, scenario.Rule{When: scenario.When{Contains: "stop repeating"}, Respond: scenario.Respond{OK: true}})
		}
		if rapid.Bool().Draw(t, "overload_first") {
			rules = append(rules, scenario.Rule{When: scenario.When{Attempt: 1}, Respond: scenario.Respond{Status: 529}})
		}
		for i := range rapid.IntRange(1, 3).Draw(t, "tool_rules") {
			label := fmt.Sprintf("rule%d", i)
			r := scenario.Rule{Times: rapid.IntRange(0, 6).Draw(t, label+".times")}
			for j := range rapid.IntRange(1, 2).Draw(t, label+".calls") {
				r.Respond.ToolUse = append(r.Respond.ToolUse, call(fmt.Sprintf("%s.call%d", label, j)))
			}
			r.Respond.Cycle = rapid.Bool().Draw(t, label+".cycle")
			r.Respond.Vary = rapid.Bool().Draw(t, label+".vary")
			rules = append(rules, r)
		}
		if rapid.Bool().Draw(t, "answers_at_last") {
			rules = append(rules, scenario.Rule{Respond: scenario.Respond{OK: true}})
		}
		return &scenario.Scenario{
			Name:        "generated-tools",
			Description: "generated by rapid",
			Models:      map[string]scenario.Model{"primary": {ContextWindow: 200000, MaxOutput: 8000}},
			Turn: scenario.Turn{
				Model: "primary", MaxTokens: 1024, SystemTokens: rapid.IntRange(0, 500).Draw(t, "system_tokens"),
				Messages:     []scenario.MessageGroup{{Count: 1, Tokens: rapid.IntRange(1, 2000).Draw(t, "message_tokens")}},
				AnswerTokens: rapid.IntRange(1, 500).Draw(t, "answer_tokens"),
			},
			Tools:  tools,
			Script: rules,
		}
	})
}

// FleetScenario generates workloads on shared quotas: a primary with a
// requests bucket (and maybe input and output token buckets, each large
// enough for one request, so that any request can be admitted at last),
// maybe a capacity and a speed, maybe a backup with room; 2 to 12 turns,
// at most concurrency in flight (drawn unless the caller fixes it: 0),
// starting together or one every few seconds, some of them background.
func FleetScenario(concurrency int) *rapid.Generator[*scenario.Scenario] {
	return rapid.Custom(func(t *rapid.T) *scenario.Scenario {
		maxTokens := rapid.IntRange(64, 1024).Draw(t, "max_tokens")
		count := rapid.IntRange(1, 4).Draw(t, "messages")
		tokens := rapid.IntRange(count, 4000).Draw(t, "message_tokens")
		system := rapid.IntRange(0, 1000).Draw(t, "system_tokens")
		primary := scenario.Model{ContextWindow: 200000, MaxOutput: 8000}
		primary.Limits.RPM = rapid.IntRange(1, 20).Draw(t, "rpm")
		if rapid.Bool().Draw(t, "itpm") {
			primary.Limits.ITPM = rapid.IntRange(system+tokens+200, 3*(system+tokens+200)).Draw(t, "itpm_limit")
		}
		if rapid.Bool().Draw(t, "otpm") {
			primary.Limits.OTPM = rapid.IntRange(maxTokens, 4*maxTokens).Draw(t, "otpm_limit")
		}
		if rapid.Bool().Draw(t, "speed") {
			primary.Speed = scenario.Speed{
				FirstToken:            scenario.Duration(time.Duration(rapid.IntRange(0, 2000).Draw(t, "first_token_ms")) * time.Millisecond),
				OutputTokensPerSecond: rapid.IntRange(20, 400).Draw(t, "output_tokens_per_second"),
			}
			if rapid.Bool().Draw(t, "capacity") {
				primary.Capacity.Concurrent = rapid.IntRange(1, 6).Draw(t, "concurrent")
			}
		}
		models := map[string]scenario.Model{"primary": primary}
		var fallback []string
		if rapid.Bool().Draw(t, "backup") {
			models["backup"] = scenario.Model{ContextWindow: 200000, MaxOutput: 8000, Speed: primary.Speed}
			fallback = []string{"backup"}
		}
		turns := rapid.IntRange(2, 12).Draw(t, "turns")
		if concurrency <= 0 {
			concurrency = rapid.IntRange(1, turns).Draw(t, "concurrency")
		}
		w := scenario.Workload{Turns: turns, Concurrency: concurrency}
		if rapid.Bool().Draw(t, "staggered") {
			w.Start.Every = scenario.Duration(time.Duration(rapid.IntRange(0, 5000).Draw(t, "every_ms")) * time.Millisecond)
		}
		w.Background = rapid.IntRange(0, turns).Draw(t, "background")
		return &scenario.Scenario{
			Name:        "generated-fleet",
			Description: "generated by rapid",
			Models:      models,
			Turn: scenario.Turn{
				Model: "primary", Fallback: fallback, MaxTokens: maxTokens, SystemTokens: system,
				Messages:     []scenario.MessageGroup{{Count: count, Tokens: tokens}},
				AnswerTokens: rapid.IntRange(1, maxTokens).Draw(t, "answer_tokens"),
			},
			Workload: w,
		}
	})
}
