package property

import (
	"slices"
	"strconv"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/scenario"
)

// A Fault is one answer of the vocabulary the generators script, named
// as the coverage tests, explore's files and docs/explore.md know it.
type Fault struct {
	Name    string
	Respond scenario.Respond
}

// The messages the real APIs send, as the default suite quotes them.
const (
	msgQuota      = "You exceeded your current quota, please check your plan and billing details."
	msgRateTokens = "Number of request tokens has exceeded your per-minute rate limit"
	msgSchema     = "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12"
	msgNoNumbers  = "The input is too long for the model's context window."
	msgNotFound   = "model: claude-3-opus-20240229"
	msgMaintain   = "The service is down for scheduled maintenance."
)

// resetAt is a rate-limit reset header's time: at seconds after the start
// of the session (a run's clock starts at clock.Epoch).
func resetAt(seconds int) string {
	return clock.Epoch.Add(time.Duration(seconds) * time.Second).Format(time.RFC3339)
}

func hdr(kv ...string) map[string]string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// Faults is the one vocabulary of faultbench's generators — proptest's
// generated scripts and explore's search both draw their rules from it,
// and the properties are stated over what it holds: every status of
// docs/classification.md with the headers and messages the real APIs
// send, the server's directives (x-should-retry both ways — false only
// on a 503, as the properties assume — retry-after in seconds,
// retry-after-ms, the rate-limit reset headers of both wires), transport
// faults (reset, hang, garbage, a delay past nothing or past the client's
// deadline) and stream faults (cut midway, overloaded midway, dribble,
// malformed, empty). The mock gives a rate-limit 429 a retry-after of its
// own; the faults meant to carry no directive, or only the reset headers,
// take it away ("").
var Faults = []Fault{
	{"rate-limit", scenario.Respond{Status: 429, Message: msgRateTokens}},
	{"rate-limit-no-retry-after", scenario.Respond{Status: 429, Headers: hdr("retry-after", "")}},
	{"retry-after-1s", scenario.Respond{Status: 429, Headers: hdr("retry-after", "1")}},
	{"retry-after-5s", scenario.Respond{Status: 429, Headers: hdr("retry-after", "5")}},
	{"retry-after-30s", scenario.Respond{Status: 429, Headers: hdr("retry-after", "30")}},
	{"retry-after-120s", scenario.Respond{Status: 429, Headers: hdr("retry-after", "120")}},
	{"retry-after-ms", scenario.Respond{Status: 429, Headers: hdr("retry-after", "", "retry-after-ms", "2500")}},
	{"reset-anthropic", scenario.Respond{Status: 429, Headers: hdr("retry-after", "",
		"anthropic-ratelimit-requests-limit", "50", "anthropic-ratelimit-requests-remaining", "0",
		"anthropic-ratelimit-requests-reset", resetAt(12))}},
	{"reset-openai", scenario.Respond{Status: 429, Headers: hdr("retry-after", "",
		"x-ratelimit-limit-requests", "500", "x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "6s")}},
	{"quota", scenario.Respond{Status: 429, Message: msgQuota}},
	{"quota-should-retry", scenario.Respond{Status: 429, Message: msgQuota, Headers: hdr("x-should-retry", "true")}},
	{"overloaded", scenario.Respond{Status: 529}},
	{"overloaded-should-retry", scenario.Respond{Status: 529, Headers: hdr("x-should-retry", "true")}},
	{"server-error", scenario.Respond{Status: 500}},
	{"server-error-should-retry", scenario.Respond{Status: 500, Headers: hdr("x-should-retry", "true")}},
	{"bad-gateway", scenario.Respond{Status: 502}},
	{"unavailable-should-not-retry", scenario.Respond{Status: 503, Message: msgMaintain, Headers: hdr("x-should-retry", "false")}},
	{"gateway-timeout", scenario.Respond{Status: 504}},
	{"request-timeout", scenario.Respond{Status: 408}},
	{"conflict", scenario.Respond{Status: 409}},
	{"too-large", scenario.Respond{Status: 413}},
	{"invalid-request", scenario.Respond{Status: 400, Message: msgSchema}},
	{"overflow-no-numbers", scenario.Respond{Status: 400, Message: msgNoNumbers}},
	{"auth", scenario.Respond{Status: 401}},
	{"payment", scenario.Respond{Status: 402}},
	{"permission", scenario.Respond{Status: 403}},
	{"permission-should-retry", scenario.Respond{Status: 403, Headers: hdr("x-should-retry", "true")}},
	{"not-found", scenario.Respond{Status: 404, Message: msgNotFound}},
	{"reset", scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultReset}}},
	{"hang", scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultHang}}},
	{"garbage", scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultGarbage}}},
	{"malformed", scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultMalformed}}},
	{"empty", scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultEmpty}}},
	{"delay", scenario.Respond{Fault: scenario.Fault{Delay: scenario.Duration(20 * time.Second)}}},
	{"timeout", scenario.Respond{Fault: scenario.Fault{Delay: scenario.Duration(11 * time.Minute)}}},
	{"cut-midway", scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultCut, After: 4}}},
	{"overloaded-midway", scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 6}}},
	{"dribble", scenario.Respond{Fault: scenario.Fault{Dribble: scenario.Duration(500 * time.Millisecond)}}},
	{"dribble-cut", scenario.Respond{Fault: scenario.Fault{Dribble: scenario.Duration(time.Second), Kind: scenario.FaultCut, After: 8}}},
}

// ServerWaits are the waits Faults ask for, shortest first: their
// retry-after and retry-after-ms values and how far ahead their
// rate-limit resets are (at the start of a session).
func ServerWaits() []time.Duration {
	var out []time.Duration
	for _, f := range Faults {
		h := f.Respond.Headers
		if s, err := strconv.Atoi(h["retry-after"]); err == nil {
			out = append(out, time.Duration(s)*time.Second)
		}
		if ms, err := strconv.Atoi(h["retry-after-ms"]); err == nil {
			out = append(out, time.Duration(ms)*time.Millisecond)
		}
		if at, err := time.Parse(time.RFC3339, h["anthropic-ratelimit-requests-reset"]); err == nil {
			out = append(out, at.Sub(clock.Epoch))
		}
		if d, err := time.ParseDuration(h["x-ratelimit-reset-requests"]); err == nil {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
